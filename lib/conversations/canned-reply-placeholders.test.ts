import test from 'ava';
import {
  cannedReplyPlaceholders,
  firstWordOf,
  placeholdersIn,
  renderCannedReply,
  unknownPlaceholders,
} from './canned-reply-placeholders.js';

const grace = {
  'contact.name': 'Grace Hopper',
  'contact.first_name': 'Grace',
  'contact.email': 'grace@example.com',
  'agent.name': 'Ada Lovelace',
  'conversation.id': 'c-1',
};

test('each placeholder is filled with its value, spaces inside the braces allowed, each place it stands', (t) => {
  t.deepEqual(
    renderCannedReply(
      'Hi {{contact.first_name}}, {{ agent.name }} here. {{contact.first_name}}: ref {{conversation.id}}.',
      grace,
    ),
    {
      ok: true,
      text: 'Hi Grace, Ada Lovelace here. Grace: ref c-1.',
    },
  );
  t.deepEqual(renderCannedReply('No placeholders, {single} braces stay.', {}), {
    ok: true,
    text: 'No placeholders, {single} braces stay.',
  });
});

test('an unknown placeholder is named, each once, whatever the values; known ones are not', (t) => {
  t.deepEqual(unknownPlaceholders('Hi {{contact.nmae}} and {{ contact.nmae }}, {{agent.name}} {{order.id}} {{}}'), [
    'contact.nmae',
    'order.id',
    '',
  ]);
  t.deepEqual(
    unknownPlaceholders(
      Object.keys(cannedReplyPlaceholders)
        .map((name) => `{{${name}}}`)
        .join(' '),
    ),
    [],
  );
  t.deepEqual(renderCannedReply('Hi {{contact.nmae}}', grace), { ok: false, unknown: ['contact.nmae'], missing: [] });
  t.deepEqual(unknownPlaceholders('{{Contact.Name}}'), ['Contact.Name'], 'names are exact, lower case');
});

test('a missing value is refused by name, unless the placeholder has a fallback', (t) => {
  t.deepEqual(renderCannedReply('Hi {{contact.name}}, mail {{contact.email}}', { 'contact.email': '  ' }), {
    ok: false,
    unknown: [],
    missing: ['contact.name', 'contact.email'],
  });
  t.deepEqual(renderCannedReply('Hi {{contact.first_name | there}}!', {}), { ok: true, text: 'Hi there!' });
  t.deepEqual(renderCannedReply('Hi {{contact.first_name|there}}!', grace), { ok: true, text: 'Hi Grace!' }, 'the value wins');
  t.deepEqual(
    renderCannedReply('Hi {{contact.name | }}!', {}),
    { ok: false, unknown: [], missing: ['contact.name'] },
    'a blank fallback is none',
  );
  t.deepEqual(placeholdersIn('{{ contact.name | dear customer }}'), [
    { written: '{{ contact.name | dear customer }}', name: 'contact.name', fallback: 'dear customer' },
  ]);
});

test('a value is put in once, as text: one that looks like a placeholder is not filled again', (t) => {
  t.deepEqual(
    renderCannedReply('Hi {{contact.name}}', { 'contact.name': '{{agent.email}}', 'agent.email': 'ada@shop.example' }),
    {
      ok: true,
      text: 'Hi {{agent.email}}',
    },
  );
  t.deepEqual(renderCannedReply('Hi {{contact.name}}', { 'contact.name': '$& $1 <b>' }), { ok: true, text: 'Hi $& $1 <b>' });
});

test('the first word of a name', (t) => {
  t.is(firstWordOf('  Grace   Hopper '), 'Grace');
  t.is(firstWordOf('Cher'), 'Cher');
  t.is(firstWordOf('   '), undefined);
  t.is(firstWordOf(undefined), undefined);
});
