import test from 'ava';
import { bodyParametersOf, parameterProblems, renderTemplate, templatePayload } from './templates.js';

test("a body's parameter count is its highest {{n}}, numbered from 1 without gaps", (t) => {
  t.deepEqual(bodyParametersOf('No parameters.'), { count: 0 });
  t.deepEqual(bodyParametersOf('Hi {{1}}, order {{2}}; again {{1}}'), { count: 2 });
  t.deepEqual(bodyParametersOf('Hi {{ 1 }}'), { count: 1 });
  t.like(bodyParametersOf('Hi {{2}}'), { problem: '{{1}} is missing: parameters are numbered from 1 without gaps' });
  t.true('problem' in bodyParametersOf('Hi {{name}}'));
  t.true('problem' in bodyParametersOf('Hi {{0}}'));
  t.true('problem' in bodyParametersOf(Array.from({ length: 21 }, (_, i) => `{{${i + 1}}}`).join(' ')));
});

test('parameters are counted and checked as the platform takes them', (t) => {
  const template = { bodyParameters: 2 };
  t.deepEqual(parameterProblems(template, ['Grace', 'A-1042']), []);
  t.regex(parameterProblems(template, ['Grace'])[0]!, /takes 2 body parameters, 1 were given/);
  t.regex(parameterProblems(template, ['Grace', ' '])[0]!, /parameter 2 is blank/);
  t.regex(parameterProblems(template, ['Grace', 'a\tb'])[0]!, /line break or tab/);
  t.regex(parameterProblems(template, ['Grace', 'a     b'])[0]!, /more than 4 spaces/);
  t.deepEqual(parameterProblems(template, ['Grace', 'a    b']), [], 'four spaces are fine');
});

test('the transcript shows the body filled in; the payload carries the body parameters as text', (t) => {
  t.is(renderTemplate('Hi {{1}}, order {{2}} ({{1}})', ['Grace', 'A-1']), 'Hi Grace, order A-1 (Grace)');
  t.deepEqual(templatePayload('4915100000000', { name: 'welcome', language: 'en', parameters: [] }), {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: '4915100000000',
    type: 'template',
    template: { name: 'welcome', language: { code: 'en' } },
  });
  t.deepEqual(templatePayload('1', { name: 'x', language: 'en_US', parameters: ['a'] }).template, {
    name: 'x',
    language: { code: 'en_US' },
    components: [{ type: 'body', parameters: [{ type: 'text', text: 'a' }] }],
  });
});
