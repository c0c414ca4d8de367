import test from 'ava';
import { leansBack } from './openers.js';

test('sentences that open with a pronoun, a demonstrative or a connective lean back', (t) => {
  for (const sentence of [
    'It will display the name of the distribution.',
    'It’s 2 kg.',
    "They're free.",
    'It is open Monday to Saturday from 10:00 to 19:00.',
    'This tent is light.',
    'These steps also work on a phone.',
    'However, sale items are final.',
    'Then click Save.',
    'Also, you can pay by card.',
    'Both tents have two doors.',
    'Such items cannot be returned.',
    'The same applies to gift cards.',
    'In this case, contact us.',
    'If so, we refund you.',
    '- It weighs 2 kg',
    '"It works," they said.',
    'Es dauert 3 Tage.',
    'Er ist wasserdicht.',
    'Sie ist wasserdicht.',
    'Sie kann gewaschen werden.',
    'Dies gilt auch für Sale-Artikel.',
    'Diese Jacke ist leicht.',
    'Dafür brauchen Sie ein Konto.',
    'Das ist kostenlos.',
    'Außerdem erhalten Sie einen Gutschein.',
  ]) {
    t.true(leansBack(sentence), sentence);
  }
});

test('sentences that say what they are about stand alone', (t) => {
  for (const sentence of [
    'Returns are free.',
    'Italy is in the EU.',
    'Theodore was here.',
    'Southern Europe gets 3 days.',
    'It is possible to change your order until it has been packed.',
    "It's easy to reset your password.",
    'Those who order before 2 pm get it tomorrow.',
    'Here is how to set a new one.',
    'There are three sizes.',
    'Es gibt drei Größen.',
    'Sie können Ihre Bestellung ändern.',
    'Sie erhalten eine E-Mail.',
    'Sie sind herzlich willkommen.',
    'Ihre Bestellung wird versandt.',
    'Das Zelt wiegt 2 kg.',
    'Der Versand ist kostenlos.',
    'Sonntags geschlossen.',
  ]) {
    t.false(leansBack(sentence), sentence);
  }
});
