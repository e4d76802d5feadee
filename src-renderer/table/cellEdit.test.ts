import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cellEditText, parseCellInput } from './cellEdit.js';

describe('parseCellInput', () => {
  it('numbers for numeric fields, whole numbers for integer ones', () => {
    assert.deepEqual(parseCellInput(' 42 ', 'integer'), { value: 42 });
    assert.deepEqual(parseCellInput('-3.5', 'real'), { value: -3.5 });
    assert.deepEqual(parseCellInput('1e3', 'integer64'), { value: 1000 });
    assert.match((parseCellInput('4.2', 'integer') as { error: string }).error, /whole number/);
    assert.match((parseCellInput('abc', 'real') as { error: string }).error, /not a number/);
  });
  it('an empty cell is null, whatever the type', () => {
    assert.deepEqual(parseCellInput('', 'string'), { value: null });
    assert.deepEqual(parseCellInput('  ', 'real'), { value: null });
  });
  it('text as typed for the other types', () => {
    assert.deepEqual(parseCellInput(' Ashe ', 'string'), { value: ' Ashe ' });
    assert.deepEqual(parseCellInput('2024-05-01', 'date'), { value: '2024-05-01' });
  });
});

describe('cellEditText', () => {
  it('starts from the value, or nothing for null', () => {
    assert.equal(cellEditText(12.5), '12.5');
    assert.equal(cellEditText(null), '');
    assert.equal(cellEditText(true), 'true');
  });
});
