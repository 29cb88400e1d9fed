import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Manifest } from 'aicap';
import { createJobStreams, createManifestHandler, toNodeListener } from 'aicap/server';

const manifestHandler = createManifestHandler({ manifest: JSON.parse(readFileSync('ai-capabilities.json', 'utf8')) as Manifest });
const jobs = createJobStreams({ routes: { status: '/reports/{job_id}/status' } });
createServer(
  toNodeListener(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === manifestHandler.path) return manifestHandler(request);
    if (pathname === '/reports' && request.method === 'POST') return jobs.start(request, async (job) => (await job.progress(50), { rows: 42 }));
    return (await jobs.handle(request)) ?? new Response('Not Found', { status: 404 });
  }),
).listen(3000);
