/**
 * Evaluation questions for the Northwind Outfitters corpus (`corpus.ts`), written the way visitors
 * type: short and long, with typos, and often without the words the answering item uses.
 *
 * `answeredBy` lists the externalIds whose text answers the question: usually one, two where both
 * genuinely do. An empty list means nothing in the corpus answers it, and the assistant should say
 * it does not know. Near-domain unanswerable questions were checked against every item: none of
 * them is answered, not even by a list that implies "no" (the payment page lists what it accepts
 * and what it refuses, so "bitcoin" is answerable and sits with the answerable questions).
 *
 * This file holds the first set, used for tuning only; `hard-questions.ts` holds the harder set,
 * half of each kind held out. `evalQuestions` is the union of both.
 */
import { hardQuestions } from './hard-questions.js';
import { section, type EvalQuestion } from './question-types.js';

export type { EvalQuestion, QuestionKind, QuestionSplit } from './question-types.js';

const firstSet: EvalQuestion[] = [
  ...section('plain', 'tuning', [
    // Tents
    { id: 'trailhead-weight', question: 'how heavy is the trailhead 2 tent?', answeredBy: ['tent-trailhead-2'] },
    {
      id: 'freestanding-two-person',
      question: 'looking for the lightest 2 person tent that stands up on its own without pegs',
      answeredBy: ['tent-trailhead-2'],
    },
    {
      id: 'family-car-camping-tent',
      question: 'Need a tent for me, my wife and our two kids for car camping. Ideally one we can stand up in to get changed?',
      answeredBy: ['tent-basecamp-4'],
    },
    {
      id: 'trekking-pole-tent',
      question: 'do you have a tent that you put up with hiking poles instead of tent poles',
      answeredBy: ['tent-ridgeline-1'],
    },
    {
      id: 'ridgeline-condensation',
      question: 'walls of my ridgeline are dripping wet every morning, what am I doing wrong',
      answeredBy: ['tent-ridgeline-1'],
    },

    // Sleeping bags and pads
    {
      id: 'aurora-comfort',
      question: 'what is the comfort temperature of the aurora bag',
      answeredBy: ['sleeping-bag-aurora-minus7'],
    },
    {
      id: 'warmest-bag',
      question: 'Which of your sleeping bags is best for nights below freezing?',
      answeredBy: ['sleeping-bag-aurora-minus7'],
    },
    {
      id: 'meadow-washing-machine',
      question: 'can the meadow go in the washing machine',
      answeredBy: ['sleeping-bag-meadow-plus5'],
    },
    {
      id: 'double-bag',
      question: 'can two sleeping bags be joined to make a double for me and my partner?',
      answeredBy: ['sleeping-bag-meadow-plus5'],
    },
    { id: 'cloudrest-r-value', question: 'whats the r value of the cloudrest', answeredBy: ['pad-cloudrest'] },
    {
      id: 'cold-despite-rating',
      question: 'I was freezing all night even though my bag is rated for that temperature. why??',
      answeredBy: ['howto-sleeping-bag-rating', 'pad-cloudrest'],
    },

    // Packs
    { id: 'summit-rain-cover', question: 'does the summit 55 come with a raincover', answeredBy: ['backpack-summit-55'] },
    {
      id: 'hut-to-hut-pack',
      question: 'What pack would you recommend for a week of hut to hut hiking in the Alps?',
      answeredBy: ['backpack-summit-55'],
    },
    { id: 'daytrip-laptop', question: 'will my 15" laptop fit in the daytrip 22?', answeredBy: ['backpack-daytrip-22'] },

    // Jackets
    {
      id: 'stormshell-waterproof',
      question: 'is the stormshell properly waterproof or just water resistant?',
      answeredBy: ['jacket-stormshell'],
    },
    {
      id: 'helmet-hood',
      question: 'rain jacket with a hood big enough to go over my climbing helmet',
      answeredBy: ['jacket-stormshell'],
    },
    { id: 'ember-rain', question: 'is the ember jacket ok to wear in the rain', answeredBy: ['jacket-ember-down'] },

    // Footwear
    {
      id: 'granite-resole',
      question: 'can the granite boots be resoled when the tread wears out?',
      answeredBy: ['boots-granite-mid', 'service-repair'],
    },
    {
      id: 'waterproof-leather-boots',
      question: 'leather boots that keep my feet dry walking through wet grass',
      answeredBy: ['boots-granite-mid'],
    },
    { id: 'scree-waterproof', question: 'are the scree lows waterproof?', answeredBy: ['boots-scree-low'] },
    {
      id: 'quick-dry-summer-shoe',
      question: 'light summer hiking shoe that dries quickly after a river crossing',
      answeredBy: ['boots-scree-low'],
    },

    // Stoves
    {
      id: 'pocketflame-boil',
      question: 'how fast does the pocketflame boil a litre of water',
      answeredBy: ['stove-pocketflame'],
    },
    {
      id: 'ship-gas',
      question: 'can you send me gas canisters with my stove order?',
      answeredBy: ['stove-pocketflame', 'policy-shipping-domestic'],
    },
    {
      id: 'kerosene-stove',
      question: 'I need a cooker that will burn kerosene or petrol, travelling somewhere I cant get gas cartridges',
      answeredBy: ['stove-everfuel'],
    },

    // Water filters
    { id: 'clearflow-viruses', question: 'does the clearflow filter remove viruses', answeredBy: ['filter-clearflow-squeeze'] },
    {
      id: 'filter-frozen',
      question: 'what happens if my water filter freezes overnight',
      answeredBy: ['howto-clean-water-filter', 'filter-clearflow-squeeze'],
    },
    {
      id: 'group-water',
      question: "best way to get clean water for 6 people at base camp? don't want to pump for ages",
      answeredBy: ['filter-basin-gravity'],
    },
    {
      id: 'basin-cartridge',
      question: 'how much is a replacement cartridge for the basin',
      answeredBy: ['filter-basin-gravity'],
    },

    // Returns, refunds, warranty
    { id: 'return-policy-short', question: 'return policy?', answeredBy: ['policy-returns'] },
    { id: 'send-back-days', question: 'how many days do I have to send something back', answeredBy: ['policy-returns'] },
    { id: 'worn-boots-return', question: 'can i return boots that i already wore on a hike', answeredBy: ['policy-returns'] },
    {
      id: 'return-postage',
      question: 'Do I have to pay the postage myself when I send an item back? I live in Ohio.',
      answeredBy: ['policy-returns'],
    },
    { id: 'online-to-store', question: 'can I take an online order back to one of your shops', answeredBy: ['policy-returns'] },
    { id: 'money-back-when', question: 'when do i get my money back', answeredBy: ['policy-refunds'] },
    {
      id: 'refund-missing',
      question: 'sent back a jacket 3 weeks ago and still havent seen the refund on my account??',
      answeredBy: ['policy-refunds'],
    },
    {
      id: 'refund-card-or-credit',
      question: 'Will I be refunded to my card or do I get store credit?',
      answeredBy: ['policy-refunds'],
    },
    {
      id: 'broken-pack-zip',
      question: 'the zip on my backpack broke after a year of use, is that covered?',
      answeredBy: ['policy-warranty'],
    },
    {
      id: 'defect-claim',
      question: 'The seam on my jacket is coming apart after three months. How do I get it sorted under guarantee?',
      answeredBy: ['policy-warranty'],
    },

    // Shipping
    { id: 'parcel-arrival', question: 'how long until my parcel arrives', answeredBy: ['policy-shipping-domestic'] },
    { id: 'free-delivery', question: 'how much do i need to spend for free delivery', answeredBy: ['policy-shipping-domestic'] },
    { id: 'po-box', question: 'do you ship to PO boxes?', answeredBy: ['policy-shipping-domestic'] },
    {
      id: 'click-and-collect',
      question: 'can I order on the website and collect in store',
      answeredBy: ['policy-shipping-domestic'],
    },
    { id: 'germany', question: 'Do you deliver to Germany?', answeredBy: ['policy-shipping-international'] },
    {
      id: 'uk-customs',
      question: 'if I order from the UK will I get hit with customs charges when it arrives',
      answeredBy: ['policy-shipping-international'],
    },
    { id: 'brazil', question: 'do you ship to brazil', answeredBy: ['policy-shipping-international'] },

    // Payment, price match, privacy, gift cards, loyalty
    { id: 'bitcoin', question: 'can I pay with bitcoin?', answeredBy: ['policy-payment-methods'] },
    { id: 'paypal', question: 'do you take paypal', answeredBy: ['policy-payment-methods'] },
    {
      id: 'instalments',
      question: 'is it possible to spread the cost of a tent over a few payments?',
      answeredBy: ['policy-payment-methods'],
    },
    { id: 'card-charged-when', question: 'when will my card actually be charged', answeredBy: ['policy-payment-methods'] },
    {
      id: 'cheaper-elsewhere',
      question: 'Found the exact same tent cheaper at another outdoor shop. Will you match it?',
      answeredBy: ['policy-price-match'],
    },
    {
      id: 'price-dropped',
      question: 'the jacket i bought went on sale a week later, can i get the difference back',
      answeredBy: ['policy-price-match'],
    },
    { id: 'sell-data', question: 'do you sell my personal data to other companies', answeredBy: ['policy-privacy'] },
    {
      id: 'delete-data',
      question: 'how do i get my account and everything you hold on me deleted',
      answeredBy: ['policy-privacy'],
    },
    { id: 'cookies', question: 'how can I switch off advertising cookies', answeredBy: ['policy-privacy'] },
    { id: 'gift-card-expiry', question: 'do gift cards expire', answeredBy: ['policy-gift-cards'] },
    { id: 'gift-card-balance', question: 'how do I see how much is left on my gift card', answeredBy: ['policy-gift-cards'] },
    { id: 'lost-gift-card', question: 'I lost the gift card my mum gave me for christmas :(', answeredBy: ['policy-gift-cards'] },
    { id: 'points-how', question: 'how do reward points work', answeredBy: ['policy-loyalty'] },
    { id: 'points-expire', question: 'do my points expire?', answeredBy: ['policy-loyalty'] },
    { id: 'summit-member', question: 'what perks do I get at Summit level', answeredBy: ['policy-loyalty'] },

    // How-tos
    { id: 'put-up-tent', question: 'how do I put my tent up', answeredBy: ['howto-pitch-tent'] },
    { id: 'windy-pitch', question: 'tips for setting up a tent when its really windy', answeredBy: ['howto-pitch-tent'] },
    { id: 'proof-leather-boots', question: 'how do i make my leather boots waterproof again', answeredBy: ['howto-wax-boots'] },
    { id: 'wax-how-often', question: 'how often should boots be waxed', answeredBy: ['howto-wax-boots'] },
    { id: 'blisters', question: 'my new boots are giving me blisters', answeredBy: ['howto-break-in-boots'] },
    {
      id: 'break-in-time',
      question: 'How long does it take to break in leather hiking boots before a long trip?',
      answeredBy: ['howto-break-in-boots'],
    },
    {
      id: 'filter-trickle',
      question: 'my water filter has slowed right down to a trickle',
      answeredBy: ['howto-clean-water-filter'],
    },
    {
      id: 'filter-storage',
      question: 'how should I store my squeeze filter between trips',
      answeredBy: ['howto-clean-water-filter'],
    },
    {
      id: 'comfort-vs-limit',
      question: 'whats the difference between comfort and limit temperature on a sleeping bag',
      answeredBy: ['howto-sleeping-bag-rating'],
    },
    {
      id: 'spring-mountains-rating',
      question: 'what temp rating do i need for camping in the mountains in april/may',
      answeredBy: ['howto-sleeping-bag-rating'],
    },
    { id: 'reset-email-missing', question: 'the reset link email never came through', answeredBy: ['howto-reset-password'] },
    { id: 'where-is-order', question: 'where is my order', answeredBy: ['howto-track-order'] },
    {
      id: 'delivered-not-received',
      question: 'tracking says delivered but there is no parcel anywhere',
      answeredBy: ['howto-track-order'],
    },
    {
      id: 'wrong-address',
      question: 'I typed my old address on the order by mistake, can you fix it?',
      answeredBy: ['howto-change-order-address'],
    },
    { id: 'cancel-order', question: 'cancel order', answeredBy: ['howto-change-order-address'] },
    { id: 'wash-down-bag', question: 'how do I wash a down sleeping bag', answeredBy: ['howto-wash-down'] },
    {
      id: 'puffer-lumpy',
      question: 'my puffer jacket came out of the wash flat and lumpy, is it ruined',
      answeredBy: ['howto-wash-down'],
    },
    { id: 'torso-length', question: 'how do I measure my back length for a rucksack', answeredBy: ['howto-fit-backpack'] },
    {
      id: 'pack-shoulders',
      question: 'my backpack really hurts my shoulders after a couple of hours',
      answeredBy: ['howto-fit-backpack'],
    },
    {
      id: 'jacket-wetting-out',
      question: "rain doesn't bead off my waterproof anymore and it feels damp inside. what do I do",
      answeredBy: ['howto-reproof-jacket'],
    },

    // Stores and services
    { id: 'seattle-sunday', question: 'what time does the seattle store close on sunday?', answeredBy: ['page-store-locations'] },
    { id: 'christmas-open', question: 'are you open on christmas day', answeredBy: ['page-store-locations'] },
    { id: 'denver-address', question: "what's the address of the denver shop", answeredBy: ['page-store-locations'] },
    {
      id: 'slc-monday',
      question: 'Is the Salt Lake City store open on Mondays?',
      answeredBy: ['page-store-locations'],
    },
    { id: 'fix-tent-pole', question: 'can you fix a snapped tent pole', answeredBy: ['service-repair'] },
    { id: 'resole-cost', question: 'how much does it cost to get boots resoled', answeredBy: ['service-repair'] },
    { id: 'repair-other-brands', question: "do you repair gear I didn't buy from you?", answeredBy: ['service-repair'] },
    { id: 'rent-tent-weekend', question: 'can i rent a tent for the weekend', answeredBy: ['service-rental'] },
    { id: 'hire-sleeping-bag', question: 'how much to hire a sleeping bag for 3 nights', answeredBy: ['service-rental'] },
    {
      id: 'boot-fitting-appointment',
      question: 'do i need to book an appointment to get boots fitted',
      answeredBy: ['service-boot-fitting'],
    },
    { id: 'custom-insoles', question: 'do you make custom insoles?', answeredBy: ['service-boot-fitting'] },
    { id: 'phone-number', question: 'phone number?', answeredBy: ['page-contact'] },
    { id: 'support-saturday', question: 'is customer service available on saturdays', answeredBy: ['page-contact'] },
    { id: 'us-to-eu-size', question: "I'm a US men's 10.5, what is that in EU sizes?", answeredBy: ['page-size-guide'] },
    { id: 'chest-102', question: 'what size jacket for a 102cm chest (male)', answeredBy: ['page-size-guide'] },
  ]),
  // Typos, as visitors make them.
  ...section('misspelled', 'tuning', [
    { id: 'tent-warranty-typo', question: 'waht is the warrenty on tents', answeredBy: ['policy-warranty'] },
    { id: 'canada-typo', question: 'how long does shiping take to canada', answeredBy: ['policy-shipping-international'] },
    { id: 'forgot-password-typo', question: 'forgott my pasword', answeredBy: ['howto-reset-password'] },
    { id: 'opened-cartridge', question: 'retrun an opened filter cartridge?', answeredBy: ['policy-returns'] },
  ]),
  // Other words than the answering text.
  ...section('paraphrase', 'tuning', [
    { id: 'packable-puffy', question: 'warm puffy that squishes down really small', answeredBy: ['jacket-ember-down'] },
    { id: 'real-person', question: 'how can I speak to a real person', answeredBy: ['page-contact'] },
  ]),
  // Near the shop, but the help centre does not cover them.
  ...section('unanswerable', 'tuning', [
    { id: 'share-price', question: 'what is the share price of northwind outfitters', answeredBy: [] },
    { id: 'kayaks', question: 'do you sell kayaks?', answeredBy: [] },
    { id: 'bike-helmets', question: 'do you sell bike helmets', answeredBy: [] },
    { id: 'student-discount', question: 'is there a student discount', answeredBy: [] },
    { id: 'two-factor', question: 'How do I turn on two-factor authentication for my account?', answeredBy: [] },
    { id: 'mobile-app', question: 'is there a northwind app for iphone', answeredBy: [] },
    { id: 'trail-near-denver', question: 'can you recommend a good day hike near Denver?', answeredBy: [] },
    { id: 'embroidery', question: 'do you do logo embroidery on jackets for company team orders?', answeredBy: [] },
    { id: 'guided-tours', question: 'do you run guided hiking tours', answeredBy: [] },
    { id: 'knife-sharpening', question: 'how do I sharpen a pocket knife', answeredBy: [] },
    { id: 'dogs-in-store', question: 'can i bring my dog into your stores?', answeredBy: [] },
    { id: 'hiring', question: 'are you hiring at the portland store', answeredBy: [] },
  ]),
  // Nothing to do with the shop.
  ...section('off-topic', 'tuning', [
    { id: 'world-cup-2014', question: 'who won the football world cup in 2014?', answeredBy: [] },
    { id: 'oslo-weather', question: "what's the weather in Oslo tomorrow?", answeredBy: [] },
    { id: 'capital-australia', question: 'what is the capital of australia', answeredBy: [] },
    { id: 'poem', question: 'write me a short poem about mountains', answeredBy: [] },
    { id: 'banana-bread', question: 'banana bread recipe pls', answeredBy: [] },
    { id: 'router-reset', question: 'how do i reset my wifi router', answeredBy: [] },
  ]),
];

export const evalQuestions: EvalQuestion[] = [...firstSet, ...hardQuestions];
