/** For tests of hot-loading catalogues (skills, plugins): resolves on the next reload, or fails after `ms`. */
export function nextReload(catalogue: { onChange(listener: () => void): () => void }, ms = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no reload within ${ms} ms`)), ms);
    const off = catalogue.onChange(() => {
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}
