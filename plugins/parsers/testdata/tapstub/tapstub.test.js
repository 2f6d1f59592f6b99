// node:test file for the tap parser: each test shows one outcome.
const test = require('node:test');
const assert = require('node:assert');

test('adds', () => {
  assert.strictEqual(1 + 1, 2);
});

test('fails', () => {
  assert.strictEqual(1 + 1, 3);
});

test('skipped', { skip: 'not on this platform' }, () => {});

test('todo', { todo: 'later' }, () => {
  assert.fail('not yet');
});

test('parent', async (t) => {
  await t.test('child ok', () => {});
  await t.test('child fails', () => {
    throw new Error('boom');
  });
});
