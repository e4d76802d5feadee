import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where API keys live, apart from every other setting. Nothing here logs a value, and the
 * only reader is main's model provider: the renderer never gets a key back.
 *
 * - Electron: encrypted with the OS keychain through `safeStorage` (the Electron host passes
 *   its `safeStorage` in; this file never imports electron).
 * - Web host (plain Node, no keychain): a file readable only by the user (0600, in a 0700
 *   folder) in the data folder. The settings panel says which one is in use.
 */
export interface SecretStore {
  readonly kind: 'os-keychain' | 'file';
  /** One sentence for the settings panel. */
  readonly note: string;
  get(name: string): string | null;
  set(name: string, value: string | null): void;
}

/** The part of Electron's `safeStorage` this needs. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

const FOLDER = 'secrets';

/** A 0600 JSON file of name → value (values encoded by `encode`, decoded by `decode`). */
function jsonFileStore(file: string, encode: (v: string) => string, decode: (v: string) => string | null) {
  const dir = join(file, '..');
  const read = (): Record<string, string> => {
    if (!existsSync(file)) return {};
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
    } catch {
      return {};
    }
  };
  return {
    get(name: string): string | null {
      const stored = read()[name];
      return typeof stored === 'string' ? decode(stored) : null;
    },
    set(name: string, value: string | null): void {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chmodSync(dir, 0o700);
      const all = read();
      if (value === null) delete all[name];
      else all[name] = encode(value);
      // Written beside and renamed: a crash never leaves half a file, and the mode is set
      // before any byte of a key is in it.
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, '', { mode: 0o600 });
      chmodSync(tmp, 0o600);
      writeFileSync(tmp, JSON.stringify(all, null, 2), { mode: 0o600 });
      renameSync(tmp, file);
    },
  };
}

export function fileSecretStore(home: string): SecretStore {
  const file = join(home, FOLDER, 'model-keys.json');
  const store = jsonFileStore(
    file,
    (v) => v,
    (v) => v,
  );
  return {
    kind: 'file',
    note: `Keys are kept in ${file}, a file only your user account can read (mode 600). The web host has no OS keychain to encrypt them with.`,
    ...store,
  };
}

/**
 * The OS keychain through Electron's safeStorage; where it is unavailable (Linux without a
 * secret service) the file store, and the panel says so.
 */
export function safeStorageSecretStore(safeStorage: SafeStorageLike, home: string): SecretStore {
  if (!safeStorage.isEncryptionAvailable()) {
    const fallback = fileSecretStore(home);
    return { ...fallback, note: `The OS keychain is not available, so ${fallback.note.charAt(0).toLowerCase()}${fallback.note.slice(1)}` };
  }
  const store = jsonFileStore(
    join(home, FOLDER, 'model-keys.encrypted.json'),
    (v) => safeStorage.encryptString(v).toString('base64'),
    (v) => {
      try {
        return safeStorage.decryptString(Buffer.from(v, 'base64'));
      } catch {
        // Encrypted under another user or keychain: as good as absent.
        return null;
      }
    },
  );
  return { kind: 'os-keychain', note: 'Keys are encrypted with the operating system’s keychain (Electron safeStorage).', ...store };
}
