// Which server asks, in what a forwarded sampling or elicitation request carries (pure).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ASKING_SERVER_META, namingAskingServer } from '../../server/src/core/askingServer';

test('an elicitation says which server asks in its message and its _meta; the rest is as asked', () => {
  const form = { message: 'Your name?', requestedSchema: { type: 'object', properties: {} }, _meta: { trace: 'x' } };
  assert.deepEqual(namingAskingServer('github', 'elicitation/create', form), {
    message: '[github] Your name?',
    requestedSchema: form.requestedSchema,
    _meta: { trace: 'x', [ASKING_SERVER_META]: 'github' },
  });
  const url = { mode: 'url', url: 'https://a.example/x', elicitationId: 'e1', message: 'Sign in.' };
  assert.deepEqual(namingAskingServer('web/api', 'elicitation/create', url), {
    ...url,
    message: '[web/api] Sign in.',
    _meta: { [ASKING_SERVER_META]: 'web/api' },
  });
});

test('a sampling request keeps what the model is asked; the server is named in _meta only', () => {
  const params = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], systemPrompt: 'Be brief.' };
  assert.deepEqual(namingAskingServer('everything', 'sampling/createMessage', params), {
    ...params,
    _meta: { [ASKING_SERVER_META]: 'everything' },
  });
});

test('other requests pass as they are, and a name is one clean line', () => {
  const roots = { x: 1 };
  assert.equal(namingAskingServer('a', 'roots/list', roots), roots);
  assert.equal(
    (namingAskingServer('a\u001b[31m\nb', 'elicitation/create', { message: 'm' }) as { message: string }).message,
    '[a b] m',
  );
});
