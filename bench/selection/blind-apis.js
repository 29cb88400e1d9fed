// The blind APIs (blind/): key (request file name), name, OpenAPI description under ../shared/corpus/.
export const BLIND_APIS = [
  { key: 'spotify', name: 'Spotify Web API', file: 'medium/spotify-official-open-api.yml' },
  { key: 'discourse', name: 'Discourse', file: 'medium/discourse-openapi.json' },
  { key: 'netlify', name: 'Netlify', file: 'apis-guru/netlify.com__0.1.0__swagger.yaml' },
];

// The unseen set (blind/unseen/): run once, after the selector changes it checks, never split or tuned on.
export const UNSEEN_APIS = [{ key: 'zoom', name: 'Zoom', file: 'apis-guru/zoom.us__2.0.0__swagger.yaml' }];

// The round-3f sets (blind/round3f/): written before any selector ran on these APIs, run once before the round's
// selector changes and once after, in aggregate only, never split or tuned on.
export const ROUND3F_APIS = [
  { key: 'square', name: 'Square', file: 'apis-guru/squareup.com__2.0__swagger.yaml' },
  { key: 'twitter', name: 'Twitter 1.1', file: 'apis-guru/twitter.com__legacy__1.1__swagger.yaml' },
  { key: 'blogger', name: 'Blogger', file: 'apis-guru/googleapis.com__blogger__v3__openapi.yaml' },
];

// The round-3g sets (blind/round3g/): written before any selector ran on these APIs, run once before the round's
// selector changes and once after, in aggregate only, never split or tuned on.
export const ROUND3G_APIS = [
  { key: 'jira', name: 'Jira Server', file: 'apis-guru/jira.local__1.0.0__swagger.yaml' },
  { key: 'twilio-messaging', name: 'Twilio Messaging v1', file: 'medium/twilio-messaging_v1.json' },
  { key: 'namsor', name: 'NamSor', file: 'apis-guru/namsor.com__2.0.5__openapi.yaml' },
];

// The round-3h sets (blind/round3h/): written before any selector ran on these APIs, run once before the round's
// selector changes and once after, in aggregate only, never split or tuned on.
export const ROUND3H_APIS = [
  { key: 'bbc-iplayer', name: 'BBC iPlayer', file: 'apis-guru/bbci.co.uk__1.0__openapi.yaml' },
  { key: 'instagram', name: 'Instagram', file: 'apis-guru/instagram.com__1.0.0__swagger.yaml' },
  { key: 'wikimedia', name: 'Wikimedia REST', file: 'apis-guru/wikimedia.org__1.0.0__swagger.yaml' },
];

/** The sets run whole (never split): their APIs and the file their runs are recorded in, by `--set` name. */
export const WHOLE_SETS = {
  unseen: { apis: UNSEEN_APIS, results: 'unseen-results.json' },
  round3f: { apis: ROUND3F_APIS, results: 'round3f-results.json' },
  round3g: { apis: ROUND3G_APIS, results: 'round3g-results.json' },
  round3h: { apis: ROUND3H_APIS, results: 'round3h-results.json' },
};
