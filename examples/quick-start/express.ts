import { readFileSync } from 'node:fs';
import express from 'express';
import type { Manifest } from 'aicap';
import { aiCapabilities } from 'aicap/express';
import { capabilitiesLink } from 'aicap/server';

const manifest = JSON.parse(readFileSync('ai-capabilities.json', 'utf8')) as Manifest;
const app = express();
app.use(aiCapabilities({ manifest })); // validated now; served with ETag, 304, HEAD, CORS
app.use((_request, response, next) => (response.append('Link', capabilitiesLink()), next()));
app.get('/orders/:id', (request, response) => void response.json({ id: request.params.id }));
app.listen(3000);
