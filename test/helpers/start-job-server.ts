import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { getRequestListener } from '@hono/node-server';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { createJobStreams, type CreateJobStreamsOptions, type JobRunner, type JobStreams } from '../../src/server/create-job-streams.js';
import { toNodeListener } from '../../src/server/to-node-listener.js';
import { jobStreamsMiddleware as expressJobStreams, startJob as expressStartJob } from '../../src/express/index.js';
import { aicapPlugin, startJob as fastifyStartJob } from '../../src/fastify/index.js';
import { jobStreamsMiddleware as honoJobStreams, startJob as honoStartJob } from '../../src/hono/index.js';
import { listen, type Framework, type RunningServer } from './start-framework-server.js';

/** A job server: `POST /start` runs the job; the default job routes (`/jobs/{job_id}`…) serve it. */
export interface JobServer extends RunningServer {
  jobs: JobStreams;
  /** The `ServerResponse` of every SSE request, to watch its buffered bytes. */
  streams: ServerResponse[];
}

/** Serves job streams through one framework's adapter on 127.0.0.1:0. */
export async function startJobServer(framework: Framework, runner: JobRunner, options: CreateJobStreamsOptions = {}): Promise<JobServer> {
  const jobs = createJobStreams(options);
  const streams: ServerResponse[] = [];
  const watched =
    (listener: (incoming: IncomingMessage, outgoing: ServerResponse) => void) =>
    (incoming: IncomingMessage, outgoing: ServerResponse): void => {
      if (incoming.headers.accept === 'text/event-stream') streams.push(outgoing);
      listener(incoming, outgoing);
    };
  switch (framework) {
    case 'node:http': {
      const listener = toNodeListener(async (request) => {
        if (new URL(request.url).pathname === '/start') return jobs.start(request, runner);
        return (await jobs.handle(request)) ?? new Response('not found', { status: 404 });
      });
      return { ...(await listen(createServer(watched(listener)))), jobs, streams };
    }
    case 'express': {
      const app = express();
      app.post('/start', (request, response, next) => void expressStartJob(jobs, request, response, runner).catch(next));
      app.use(expressJobStreams(jobs));
      return { ...(await listen(createServer(watched(app)))), jobs, streams };
    }
    case 'hono': {
      const app = new Hono();
      app.post('/start', (context) => honoStartJob(jobs, context, runner));
      app.use(honoJobStreams(jobs));
      return { ...(await listen(createServer(watched(getRequestListener(app.fetch))))), jobs, streams };
    }
    case 'fastify': {
      const manifest = JSON.parse(readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8')) as Manifest;
      const app = Fastify({ serverFactory: (handler) => createServer(watched(handler)) });
      await app.register(aicapPlugin, { manifest, jobs });
      app.post('/start', (request, reply) => fastifyStartJob(jobs, request, reply, runner));
      await app.listen({ port: 0, host: '127.0.0.1' });
      return { origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close(), jobs, streams };
    }
  }
}
