import { expectTypeOf, test } from 'vitest';
import type { Manifest } from '../manifest/manifest-v0.js';
import { createJobStreams, createManifestHandler, toNodeListener, type FetchHandler, type JobStreams, type ManifestHandler } from './index.js';

declare const manifest: Manifest;

test('the producer surface is Web-standard Request → Response', () => {
  expectTypeOf(createManifestHandler({ manifest })).toEqualTypeOf<ManifestHandler>();
  expectTypeOf(createManifestHandler({ manifest })).toExtend<(request: Request) => Promise<Response>>();
  expectTypeOf(createManifestHandler({ manifest }).ready).toEqualTypeOf<Promise<void>>();
  expectTypeOf(createJobStreams()).toEqualTypeOf<JobStreams>();
  expectTypeOf<JobStreams['handle']>().returns.toEqualTypeOf<Promise<Response | undefined>>();
  expectTypeOf(toNodeListener).parameter(0).toEqualTypeOf<FetchHandler>();
});
