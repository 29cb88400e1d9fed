import { describe, expect, it } from 'vitest';
import { compileJobRoutes } from './compile-job-routes.js';

describe('compileJobRoutes', () => {
  it('matches the default routes and decodes the id', () => {
    const routes = compileJobRoutes();
    expect(routes.match('/jobs/abc')).toEqual({ endpoint: 'status', jobId: 'abc' });
    expect(routes.match('/jobs/a%2Db/result')).toEqual({ endpoint: 'result', jobId: 'a-b' });
    expect(routes.match('/jobs/%E0%A4%A/cancel')).toEqual({ endpoint: 'cancel', jobId: '%E0%A4%A' });
    expect(routes.match('/jobs/abc/respond')).toEqual({ endpoint: 'respond', jobId: 'abc' });
    expect(routes.match('/jobs/abc/other')).toBeUndefined();
    expect(routes.match('/jobs/')).toBeUndefined();
    expect(routes.urlOf('respond', 'x')).toBe('/jobs/x/respond');
  });

  it('takes custom templates literally (regex characters included)', () => {
    const routes = compileJobRoutes({ status: '/v1.0/reports/{job_id}' });
    expect(routes.match('/v1.0/reports/r1')).toEqual({ endpoint: 'status', jobId: 'r1' });
    expect(routes.match('/v1x0/reports/r1')).toBeUndefined();
    expect(routes.templates.result).toBe('/jobs/{job_id}/result');
  });

  it.each(['jobs/{job_id}', '/jobs', '/jobs/{job_id}/{job_id}'])('refuses the template %j naming the option', (template) => {
    expect(() => compileJobRoutes({ cancel: template })).toThrow(/`routes\.cancel` option must be a path with one \{job_id\}/);
  });
});
