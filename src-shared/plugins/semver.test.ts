import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareVersions, parseRange, parseVersion, satisfies } from './semver.js';

describe('semver', () => {
  it('parses semantic versions and refuses what is not one', () => {
    assert.deepEqual(parseVersion('1.2.3-rc.1+build.7'), { major: 1, minor: 2, patch: 3, prerelease: ['rc', '1'] });
    for (const bad of ['1.2', '01.2.3', '1.2.3-', 'v1.2.3', '1.2.3.4', '']) assert.equal(parseVersion(bad), null, bad);
  });

  it('orders versions by semver precedence, releases above their prereleases', () => {
    const sorted = [
      '1.0.0',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-beta.11',
      '1.0.0-beta.2',
      '1.0.0-rc.1',
      '0.9.9',
      '10.0.0',
      '2.0.0',
    ].sort(compareVersions);
    assert.deepEqual(sorted, [
      '0.9.9',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '2.0.0',
      '10.0.0',
    ]);
    assert.equal(compareVersions('1.0.0+a', '1.0.0+b'), 0);
    assert.ok(compareVersions('garbage', '0.0.1') < 0);
  });

  const CASES: [string, string[], string[]][] = [
    ['*', ['0.0.1', '9.9.9'], []],
    ['1.2.3', ['1.2.3'], ['1.2.4']],
    ['=1.2.3', ['1.2.3'], ['1.2.2']],
    ['1.x', ['1.0.0', '1.9.9'], ['2.0.0', '0.9.0']],
    ['1.2', ['1.2.0', '1.2.9'], ['1.3.0']],
    ['^1.2.3', ['1.2.3', '1.9.0'], ['1.2.2', '2.0.0']],
    ['^0.2.3', ['0.2.3', '0.2.9'], ['0.3.0']],
    ['^0.0.3', ['0.0.3'], ['0.0.4']],
    ['~1.2.3', ['1.2.3', '1.2.9'], ['1.3.0']],
    ['~1', ['1.5.0'], ['2.0.0']],
    ['>=1.0.0 <2.0.0', ['1.0.0', '1.9.9'], ['2.0.0', '0.9.9']],
    ['>1.2', ['1.3.0'], ['1.2.9']],
    ['<=1.2', ['1.2.9'], ['1.3.0']],
    ['>1.2.3', ['1.2.4'], ['1.2.3']],
    ['1.x || >=3.0.0', ['1.5.0', '3.1.0'], ['2.0.0']],
  ];
  for (const [range, yes, no] of CASES) {
    it(`range ${range}`, () => {
      for (const v of yes) assert.ok(satisfies(v, range), `${v} should satisfy ${range}`);
      for (const v of no) assert.ok(!satisfies(v, range), `${v} should not satisfy ${range}`);
    });
  }

  it('refuses what is not a range', () => {
    for (const bad of ['banana', '1.x.3', '>=', '1.2 ||', '^1.2-beta', '1.2.3.4']) assert.equal(parseRange(bad), null, bad);
  });
});
