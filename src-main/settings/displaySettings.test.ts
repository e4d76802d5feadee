import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDisplaySettings } from './displaySettings.js';

/** A settings file in memory: the store only needs get and set. */
function memoryDb() {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => (values.get(key) as T | undefined) ?? null,
    set: (key: string, value: unknown) => void values.set(key, value),
  };
}

test('the language defaults to English, also for a settings file written before it existed', () => {
  const db = memoryDb();
  assert.deepEqual(createDisplaySettings(db).get(), { onlineBasemap: false, language: 'en' });
  db.set('display', { onlineBasemap: true });
  assert.deepEqual(createDisplaySettings(db).get(), { onlineBasemap: true, language: 'en' });
});

test('a patch changes only what it names', () => {
  const display = createDisplaySettings(memoryDb());
  assert.deepEqual(display.set({ language: 'zh-CN' }), { onlineBasemap: false, language: 'zh-CN' });
  assert.deepEqual(display.set({ onlineBasemap: true }), { onlineBasemap: true, language: 'zh-CN' });
  assert.deepEqual(display.get(), { onlineBasemap: true, language: 'zh-CN' });
});
