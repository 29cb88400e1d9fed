/** One transaction of the fake ledger. */
export interface Transaction {
  transaction_id: string;
  date: string;
  amount: number;
  merchant: string;
}

/** A flagged transaction, as `analyze_transactions` returns it. */
export interface Anomaly {
  transaction_id: string;
  anomaly_type: string;
  confidence: number;
  details: string;
}

/** An account of the fake bank. */
export interface Account {
  account_id: string;
  holder: string;
  currency: string;
  balance: number;
  status: 'open' | 'closed';
  limits: { daily_spend_limit: number; daily_withdrawal_limit: number };
  transactions: Transaction[];
  anomalies: Anomaly[];
}

const MERCHANTS = ['Green Grocer', 'City Transit', 'Corner Cafe', 'Book Nook', 'Fuel Stop', 'Streamflix', 'Hardware Hub', 'Pharmacy Plus', 'Airline Co', 'Casino Royale Online'];
const HOLDERS: Record<string, string> = { '12345': 'Ada Lovelace', '67890': 'Alan Turing', '24680': 'Grace Hopper' };

/** The account ids of the fake bank. */
export const ACCOUNT_IDS: readonly string[] = Object.keys(HOLDERS);

/**
 * Builds the fake bank: the same accounts, transactions and anomalies for the same seed, so tests can
 * assert exact pages. Transactions are newest first, one or two a day going back from 2026-03-31.
 */
export function createPaymentsData(seed: number, transactionsPerAccount: number): Map<string, Account> {
  const random = mulberry32(seed);
  const accounts = new Map<string, Account>();
  for (const accountId of ACCOUNT_IDS) {
    const transactions: Transaction[] = [];
    const anomalies: Anomaly[] = [];
    let day = Date.UTC(2026, 2, 31);
    for (let index = 0; index < transactionsPerAccount; index++) {
      if (random() < 0.6) day -= 86_400_000;
      const merchant = MERCHANTS[Math.floor(random() * MERCHANTS.length)] as string;
      const large = random() < 0.08;
      const amount = Math.round((large ? 900 + random() * 4000 : 3 + random() * 120) * 100) / 100;
      const transaction = { transaction_id: `txn_${accountId}_${String(index + 1).padStart(4, '0')}`, date: new Date(day).toISOString().slice(0, 10), amount, merchant };
      transactions.push(transaction);
      if (large || merchant === 'Casino Royale Online') {
        anomalies.push({
          transaction_id: transaction.transaction_id,
          anomaly_type: large ? 'unusual_amount' : 'high_risk_merchant',
          confidence: Math.round((0.6 + random() * 0.39) * 100) / 100,
          details: large ? `Amount ${amount.toFixed(2)} is far above the usual spending at ${merchant}.` : `Payment to a high-risk merchant (${merchant}).`,
        });
      }
    }
    accounts.set(accountId, {
      account_id: accountId,
      holder: HOLDERS[accountId] as string,
      currency: 'EUR',
      balance: Math.round(random() * 5_000_000) / 100,
      status: 'open',
      limits: { daily_spend_limit: 1000, daily_withdrawal_limit: 500 },
      transactions,
      anomalies,
    });
  }
  return accounts;
}

// A small, well-known 32-bit PRNG: deterministic across platforms, unlike Math.random.
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}
