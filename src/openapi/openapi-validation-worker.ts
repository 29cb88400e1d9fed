// The thread `validateOpenApiDescription` starts: checks the copy of the documents it was given and
// answers with the findings, so that the generator converts and maps the description meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import { findDescriptionProblems, type ValidationInput } from './validate-openapi-description.js';

parentPort?.postMessage(await findDescriptionProblems(workerData as ValidationInput, true));
