/**
 * `exclude` is a boundary: in the editor a workspace's `"mcpLens.exclude": []` would replace the
 * user's list (VS Code resolves array settings by level). The client hands the sidecar the union
 * of every level instead: a repository may hide more tools, never bring back one the user hid.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { excludeOfAllLevels } from '../../protocol/settings';

test("exclude: the user's patterns stay whatever the workspace sets", () => {
  assert.deepEqual(excludeOfAllLevels({ globalValue: ['*/delete_*'], workspaceValue: [] }), ['*/delete_*']);
  assert.deepEqual(
    excludeOfAllLevels({
      globalValue: ['*/delete_*'],
      workspaceValue: ['github/*'],
      workspaceFolderValue: ['*/delete_*', 'x'],
    }),
    ['*/delete_*', 'github/*', 'x'],
  );
  assert.deepEqual(excludeOfAllLevels({ workspaceValue: 'not a list' }), []);
  assert.deepEqual(excludeOfAllLevels(undefined), []);
});
