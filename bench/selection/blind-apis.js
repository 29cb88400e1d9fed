// The blind APIs (blind/): key (request file name), name, OpenAPI description under ../shared/corpus/.
export const BLIND_APIS = [
  { key: 'spotify', name: 'Spotify Web API', file: 'medium/spotify-official-open-api.yml' },
  { key: 'discourse', name: 'Discourse', file: 'medium/discourse-openapi.json' },
  { key: 'netlify', name: 'Netlify', file: 'apis-guru/netlify.com__0.1.0__swagger.yaml' },
];

// The unseen set (blind/unseen/): run once, after the selector changes it checks, never split or tuned on.
export const UNSEEN_APIS = [{ key: 'zoom', name: 'Zoom', file: 'apis-guru/zoom.us__2.0.0__swagger.yaml' }];
