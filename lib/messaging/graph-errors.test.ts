import test from 'ava';
import { readSample } from '#testing/fake-messaging-platform.js';
import { classifyGraphError, kindOfErrorCode, type GraphErrorKind } from './graph-errors.js';

const body = (code: number) => ({
  error: { message: `(#${code}) Something`, type: 'OAuthException', code, fbtrace_id: 'Atrace' },
});

test('the sample answers read with their code, details and trace id', (t) => {
  t.like(classifyGraphError(400, readSample('error-outside-window')), {
    status: 400,
    code: 131047,
    title: '(#131047) Re-engagement message',
    details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    fbtraceId: 'AqT4mZb7xQe2LkP9sVd1NcR',
    kind: 'window_closed',
    retryable: false,
  });
  const invalid = classifyGraphError(400, readSample('error-invalid-parameter'));
  t.like(invalid, { code: 131009, kind: 'invalid_payload' });
  t.is(
    invalid.message,
    'Graph API call failed (HTTP 400, code 131009): (#131009) Parameter value is not valid: Invalid buttons count. Min allowed buttons: 1, Max allowed buttons: 3 [fbtrace_id B7hK2pWq9ZtYc4Rm1XvLs0E]',
  );
});

test('the code decides, whatever the HTTP status says', (t) => {
  const expected: Record<GraphErrorKind, number[]> = {
    retryable: [2, 4, 80007, 130429, 131000, 131016, 131056, 131057],
    window_closed: [131047],
    token_invalid: [0, 190],
    recipient_unavailable: [131021, 131026, 131030, 130497],
    invalid_payload: [100, 131008, 131009, 131051],
    permanent: [1, 3, 10, 104, 200, 299, 368, 131005, 131031, 131048, 131049, 131052, 132001, 133010],
  };
  for (const [kind, codes] of Object.entries(expected) as Array<[GraphErrorKind, number[]]>) {
    for (const code of codes) {
      t.is(kindOfErrorCode(code), kind, `code ${code}`);
      for (const status of [400, 403, 429, 500, 503])
        t.is(classifyGraphError(status, body(code)).kind, kind, `code ${code}, HTTP ${status}`);
    }
  }
});

test('an answer without a known code is judged by its status: 429 and 5xx are worth another try', (t) => {
  t.like(classifyGraphError(502, '<html>Bad gateway</html>'), {
    status: 502,
    code: null,
    kind: 'retryable',
    title: 'HTTP 502 without a Graph error body',
  });
  t.like(classifyGraphError(429, {}), { kind: 'retryable' });
  t.like(classifyGraphError(500, body(999_999)), { code: 999_999, kind: 'retryable' });
  t.like(classifyGraphError(400, body(999_999)), { kind: 'permanent' });
  t.like(classifyGraphError(404, 'Not found'), { code: null, kind: 'permanent' });
  t.like(classifyGraphError(401, { error: { message: 'Expired', code: '190', error_subcode: 463 } }), {
    code: 190,
    subcode: 463,
    kind: 'token_invalid',
  });
  t.is(kindOfErrorCode(null), 'permanent');
});
