/**
 * The `generate_report` job: progress events, a warning for an empty period, one `needs_input`
 * decision (include or exclude pending transactions), then the result with a `download_url`.
 * @module
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { JobContext, JobRunner } from 'aicap/server';
import type { Account } from './payments-data.js';

/** Options of {@link createReportJob}. */
export interface CreateReportJobOptions {
  account: Account;
  /** `YYYY-MM`. */
  period: string;
  format: 'pdf' | 'csv';
  /** `<publicOrigin>/v2`, for the `download_url`. */
  baseUrl: string;
  /** Delay between two progress events, in milliseconds. */
  eventIntervalInMs: number;
  /** Progress events before and after the decision (each half). */
  progressSteps: number;
}

/** The report job's result, as the download route reads it back. */
export interface ReportResult {
  report_id: string;
  account_id: string;
  period: string;
  format: 'pdf' | 'csv';
  include_pending: boolean;
  transaction_count: number;
  total_spent: number;
  download_url: string;
}

/** The runner of one report job. */
export function createReportJob(options: CreateReportJobOptions): JobRunner {
  const { account, period, progressSteps } = options;
  return async (job: JobContext): Promise<ReportResult> => {
    const step = async (index: number): Promise<void> => {
      await delay(options.eventIntervalInMs, undefined, { signal: job.signal });
      await job.progress(Math.round((index * 100) / (2 * progressSteps + 1)));
    };
    for (let index = 1; index <= progressSteps; index++) await step(index);
    const inPeriod = account.transactions.filter((transaction) => transaction.date.startsWith(period));
    if (inPeriod.length === 0) await job.emit('warning', { message: `Account ${account.account_id} has no transactions in ${period}; the report will be empty.` });
    const answer = await job.requestInput({ prompt: 'Include pending transactions in the report?', options: ['include', 'exclude'] });
    for (let index = progressSteps + 1; index <= 2 * progressSteps; index++) await step(index);
    return {
      report_id: `rep_${job.jobId}`,
      account_id: account.account_id,
      period,
      format: options.format,
      include_pending: answer === 'include',
      transaction_count: inPeriod.length,
      total_spent: Math.round(inPeriod.reduce((sum, transaction) => sum + transaction.amount, 0) * 100) / 100,
      download_url: `${options.baseUrl}/reports/${job.jobId}/download`,
    };
  };
}
