/** VS Code's tool-confirmation dialogs, answered as a person would while a test waits for something else. */
import type { Page } from 'playwright-core';

/**
 * Polls `probe` until it returns a value; meanwhile confirms every VS Code dialog that shows
 * (Yes / Allow / Continue), after handing its text to `onDialog`. `what` names the wait in the
 * timeout's error.
 */
export async function answerDialogsUntil<T>(
  page: Page,
  what: string,
  timeoutMs: number,
  probe: () => T | undefined | Promise<T | undefined>,
  onDialog?: (text: string) => void | Promise<void>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    const dialog = page.locator('.monaco-dialog-box');
    if (await dialog.isVisible().catch(() => false)) {
      await onDialog?.((await dialog.innerText()).replace(/\s+/g, ' '));
      await dialog
        .locator('.monaco-button')
        .filter({ hasText: /^(Yes|Allow|Continue)$/ })
        .first()
        .click();
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
