/**
 * `aicap/server`: the framework-free producer side. Every handler is a Web-standard
 * `(request: Request) => Promise<Response>`; `aicap/express`, `aicap/fastify` and `aicap/hono` only
 * convert types, and `toNodeListener` runs any of them on plain `node:http`.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

export { createManifestHandler } from './create-manifest-handler.js';
export type { CreateManifestHandlerOptions, ManifestCorsOptions, ManifestHandler } from './create-manifest-handler.js';
export { filterManifestByScopes } from './filter-manifest-by-scopes.js';
export { capabilitiesLink } from './capabilities-link.js';
export { createCatalogHandler, CATALOG_PATH, CATALOG_MEDIA_TYPE } from './create-catalog-handler.js';
export type { CreateCatalogHandlerOptions, CatalogEntry, CatalogManifestEntry } from './create-catalog-handler.js';
export { createJobStreams } from './create-job-streams.js';
export type { CreateJobStreamsOptions, JobStreams, JobRoutes, JobContext, JobRunner } from './create-job-streams.js';
export { createMemoryJobEventStore } from './create-memory-job-event-store.js';
export type { CreateMemoryJobEventStoreOptions } from './create-memory-job-event-store.js';
export { TERMINAL_JOB_STATUSES } from './job-event-store.js';
export type { JobEventStore, JobEvent, JobEventPage, JobChange, JobRecord, JobSnapshot, JobStatus, PendingInput } from './job-event-store.js';
export { PROBLEM_MEDIA_TYPE } from './problem-response.js';
export type { ProblemDetails } from './problem-response.js';
export { toNodeListener } from './to-node-listener.js';
export type { FetchHandler } from './to-node-listener.js';
export { deriveTool, withDerivedTools } from './derive-tool.js';
export type { RouteAiConfig, RouteDescription, DerivedTool } from './derive-tool.js';
export { createHealthHandler } from './create-health-handler.js';
export type { CreateHealthHandlerOptions, HealthHandler } from './create-health-handler.js';
export type { HealthReport, HealthStatus, ToolHealth } from '../manifest/parse-health-report.js';
export { createChangeFeedHandler, CHANGE_FEED_PATH } from './create-change-feed-handler.js';
export type { CreateChangeFeedHandlerOptions, ChangeFeedHandler } from './create-change-feed-handler.js';
