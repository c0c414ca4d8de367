import test from 'ava';
import { placeholderFor, unsupportedPlaceholder } from './non-text-messages.js';

test('media read as their kind, with the caption or file name the customer gave', (t) => {
  t.is(placeholderFor('image', { id: '1', caption: '  The box  ' }), '[Image] The box');
  t.is(placeholderFor('image', { id: '1' }), '[Image]');
  t.is(placeholderFor('video', { id: '1', caption: 'Unboxing' }), '[Video] Unboxing');
  t.is(placeholderFor('document', { filename: 'invoice.pdf', caption: 'Order 4711' }), '[Document: invoice.pdf] Order 4711');
  t.is(placeholderFor('document', { caption: 'Order 4711' }), '[Document] Order 4711');
  t.is(placeholderFor('audio', { voice: true }), '[Voice message]');
  t.is(placeholderFor('audio', { mime_type: 'audio/mpeg' }), '[Audio]');
  t.is(placeholderFor('sticker', { animated: true }), '[Sticker]');
});

test('a location reads as its coordinates, numeric strings too, then its name and address', (t) => {
  t.is(
    placeholderFor('location', { latitude: 52.52, longitude: 13.405, name: 'Depot', address: 'Main St 1' }),
    '[Location] 52.52, 13.405 – Depot, Main St 1',
  );
  t.is(placeholderFor('location', { latitude: '52.520', longitude: ' 13.405' }), '[Location] 52.52, 13.405');
  t.is(placeholderFor('location', { latitude: 'north', name: 'Depot' }), '[Location] Depot');
});

test('shared contact cards read as the names on them', (t) => {
  t.is(placeholderFor('contacts', [{ name: { formatted_name: 'Ana Souza' }, phones: [] }]), '[Contact card: Ana Souza]');
  t.is(
    placeholderFor('contacts', [{ name: { first_name: 'Ben', last_name: 'Ode' } }, { name: { formatted_name: 'Ana' } }]),
    '[Contact cards: Ben Ode, Ana]',
  );
  t.is(placeholderFor('contacts', 'garbage'), '[Contact card]');
});

test('anything else, and content of the wrong shape, never throws', (t) => {
  t.is(placeholderFor('unsupported', { type: 'poll' }), unsupportedPlaceholder);
  t.is(placeholderFor('something_new', undefined), unsupportedPlaceholder);
  t.is(placeholderFor('image', 'not an object'), '[Image]');
  t.is(placeholderFor('document', { filename: 42 }), '[Document]');
});
