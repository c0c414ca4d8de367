import { item } from './ingestion.js';

/** A small shop's help content, as the chat tests ingest it: each item answers its own questions. */
export const shopItems = {
  returns: item('returns', {
    title: 'Returns policy',
    content:
      'You can return any unused item within 30 days of delivery for a full refund. Returns are free: print the prepaid label from your account. Sale items can be returned within 14 days.',
    url: 'https://shop.example/help/returns',
  }),
  shipping: item('shipping', {
    title: 'Shipping times',
    content:
      'Standard delivery takes 3 to 5 business days. Express delivery arrives the next business day when you order before 2 pm. We ship to every country in the European Union.',
    url: 'https://shop.example/help/shipping',
  }),
  tent: item('tent', {
    title: 'Ridgeline 2 tent',
    content:
      'A two-person backpacking tent that weighs 1.6 kg. It pitches in five minutes with colour-coded poles. Price: 349 EUR.',
    url: 'https://shop.example/p/ridgeline-2',
  }),
  germanReturns: item('rueckgabe', {
    title: 'Rückgabe',
    content:
      'Sie können jeden unbenutzten Artikel innerhalb von 30 Tagen nach der Lieferung zurückgeben und erhalten den vollen Preis erstattet. Die Rücksendung ist kostenlos.',
    url: 'https://shop.example/de/hilfe/rueckgabe',
  }),
  // Markup and a script link in the content itself: whatever of it reaches an answer must stay text.
  giftCards: item('gift-cards', {
    title: 'Gift cards',
    content:
      'Gift cards can be redeemed at checkout <img src=x onerror="window.__pwned=1"> and never expire. Redeem them [here](javascript:window.__pwned=2) or <script>window.__pwned=3</script> in the app. Gift cards cannot be exchanged for cash.',
    url: 'https://shop.example/help/gift-cards',
  }),
};
