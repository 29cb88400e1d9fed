import { describe, expect, it } from 'vitest';
import { describeOperation } from './describe-operation.js';

describe('describeOperation (action detection)', () => {
  it.each([
    { method: 'POST', path: '/repos/{owner}/{repo}/issues', summary: '', want: { actionClass: 'create', object: ['issu'], context: expect.arrayContaining(['repo']) } },
    { method: 'GET', path: '/repos/{owner}/{repo}/issues/{issue_number}', summary: '', want: { actionClass: 'read', object: ['issu'] } },
    { method: 'PATCH', path: '/repos/{owner}/{repo}/issues/{issue_number}', summary: '', want: { actionClass: 'update' } },
    { method: 'DELETE', path: '/repos/{owner}/{repo}', summary: '', want: { actionClass: 'delete', object: ['repo'] } },
    { method: 'POST', path: '/v1/customers/{customer}', summary: '<p>Updates the specified customer.</p>', want: { actionClass: 'update', verbs: ['updat'] } },
    { method: 'POST', path: '/files/{file_id}', summary: 'Restore file', want: { actionClass: 'update', verbs: ['restor'] } },
    { method: 'PUT', path: '/user/starred/{owner}/{repo}', summary: 'Star a repository for the authenticated user', want: { actionClass: 'create', verbs: ['star'] } },
    { method: 'POST', path: '/repos/{owner}/{repo}/actions/runs/{run_id}/cancel', summary: '', want: { actionClass: 'delete', verbs: ['cancel'], object: ['run'] } },
    { method: 'POST', path: '/chat.postMessage', summary: 'Sends a message to a channel.', want: { actionClass: 'create', verbs: ['send', 'post'], object: ['chat', 'messag'] } },
    { method: 'POST', path: '/tasks/{task_gid}/addFollowers', summary: '', want: { actionClass: 'create', verbs: ['add'], object: ['follower'] } },
    { method: 'PUT', path: '/files/{file_id}#add_shared_link', summary: 'Add shared link to file', want: { actionClass: 'create', verbs: ['add'], object: ['shar', 'link'] } },
    { method: 'GET', path: '/file_requests/{file_request_id}', summary: 'Get file request', want: { actionClass: 'read', object: ['fil', 'request'] } },
    { method: 'GET', path: '/projects/{project_gid}/task_counts', summary: '', want: { actionClass: 'read', object: ['task', 'count'] } },
    { method: 'GET', path: '/repos/{owner}/{repo}/forks', summary: 'List forks', want: { actionClass: 'read', object: ['fork'] } },
    { method: 'GET', path: '/search', summary: '', want: { actionClass: 'read', object: ['search'] } },
    // A lone word is a plural by its spelling before stemming (`pings` → ping), not after.
    { method: 'POST', path: '/repos/{owner}/{repo}/hooks/{hook_id}/pings', summary: 'Ping a repository webhook', want: { object: ['ping'], context: ['repo', 'hook'], itemEndpoint: false } },
    { method: 'GET', path: '/repos/{owner}/{repo}/hooks/{hook_id}', summary: '', want: { object: ['hook'], itemEndpoint: true } },
  ])('$method $path', ({ method, path, summary, want }) => {
    expect(describeOperation(method, path, summary)).toMatchObject(want);
  });

  it('takes the first sentence as the summary and caps the details', () => {
    const profile = describeOperation('GET', '/x', `Lists things. ${'word '.repeat(200)}`);
    expect(profile.summary).toBe('Lists things');
    expect(profile.details.split(' ').filter(Boolean).length).toBeLessThanOrEqual(60);
  });
});
