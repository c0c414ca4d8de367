/**
 * The harder evaluation set, written for this project after the first set (`questions.ts`) and never
 * tuned to any system: paraphrases that avoid the answering text's words, realistic typos, questions
 * that need two items, near-domain questions the help centre does not answer, and off-topic ones.
 *
 * Every kind is split in two by hand, about half `tuning` and half `held-out`, so the split is fixed
 * here rather than drawn at run time. Each unanswerable and off-topic question was read against every
 * corpus item: none is answered, not even partly, and none by a list that implies "no" (which is why
 * there are no "do you ship to…", "do you have a store in…" or "can I pay with…" questions here).
 * Each answerable one lists every item that answers it.
 */
import { section, type EvalQuestion } from './question-types.js';

const plain: EvalQuestion[] = [
  ...section('plain', 'tuning', [
    { id: 'headlamp-waterproof', question: 'is the beacon headlamp waterproof?', answeredBy: ['headlamp-beacon-350'] },
    { id: 'poles-weight', question: 'how much do the switchback trekking poles weigh', answeredBy: ['poles-switchback-carbon'] },
    { id: 'everfuel-bottle-included', question: 'Is a fuel bottle included with the Everfuel?', answeredBy: ['stove-everfuel'] },
    { id: 'rental-tent-deposit', question: 'how much deposit do you hold for a rental tent', answeredBy: ['service-rental'] },
    {
      id: 'aurora-long-weight',
      question: 'what does the long version of the aurora weigh',
      answeredBy: ['sleeping-bag-aurora-minus7'],
    },
  ]),
  ...section('plain', 'held-out', [
    {
      id: 'headlamp-brightness',
      question: 'how bright is the beacon 350 and how far does the beam reach?',
      answeredBy: ['headlamp-beacon-350'],
    },
    {
      id: 'poles-packed-length',
      question: 'how short do the switchback poles pack down? I want to strap them to my daypack',
      answeredBy: ['poles-switchback-carbon'],
    },
    { id: 'scree-resole', question: 'can the scree low shoes be resoled?', answeredBy: ['boots-scree-low'] },
    {
      id: 'gift-card-largest',
      question: "what's the biggest amount you can put on one gift card",
      answeredBy: ['policy-gift-cards'],
    },
    {
      id: 'summit-max-load',
      question: 'What is the most weight the Summit 55 is designed to carry?',
      answeredBy: ['backpack-summit-55'],
    },
  ]),
];

const paraphrase: EvalQuestion[] = [
  ...section('paraphrase', 'tuning', [
    {
      id: 'solo-shelter-with-sticks',
      question:
        "Solo hiker here and I always walk with a pair of sticks anyway. What's the lightest thing you sell to sleep under?",
      answeredBy: ['tent-ridgeline-1'],
    },
    {
      id: 'tall-sleeper',
      question: "I'm 6'5\". Which of your bags comes long enough that my shoulders aren't poking out the top?",
      answeredBy: ['sleeping-bag-aurora-minus7'],
    },
    {
      id: 'bag-as-duvet',
      question: 'Which of your sleeping bags unzips fully so I can throw it over the bed like a duvet when friends stay over?',
      answeredBy: ['sleeping-bag-meadow-plus5'],
    },
    {
      id: 'sweaty-back-commute',
      question: 'I cycle to the office and my back is always soaked under my bag. Do you have one that lets some air through?',
      answeredBy: ['backpack-daytrip-22'],
    },
    {
      id: 'crag-warm-layer',
      question: 'what would keep me warm standing at the bottom of the crag for ages while my partner climbs?',
      answeredBy: ['jacket-ember-down'],
    },
    {
      id: 'tiny-solo-burner',
      question: 'smallest and lightest thing you have got for heating water on solo trips',
      answeredBy: ['stove-pocketflame'],
    },
    {
      id: 'hepatitis-squeeze',
      question:
        'Travelling around south-east Asia for three months. Will the squeeze thing protect me from hepatitis A if I use it on tap water?',
      answeredBy: ['filter-clearflow-squeeze'],
    },
    {
      id: 'abroad-send-back-cost',
      question: "I live in Germany. Who pays to post things back if I don't want them?",
      answeredBy: ['policy-returns'],
    },
    {
      id: 'fly-coating-flaking',
      question: "The shiny stuff on the inside of my tent's outer is flaking off and it's only 18 months old. Is that on you?",
      answeredBy: ['policy-warranty'],
    },
    {
      id: 'melbourne-door-fees',
      question: 'Ordering to Melbourne. Is the courier going to ask me for more money when it turns up?',
      answeredBy: ['policy-shipping-international'],
    },
    {
      id: 'marketplace-cheaper',
      question: 'some random seller on a big online marketplace has the same boots for way less, will you do that price?',
      answeredBy: ['policy-price-match'],
    },
    {
      id: 'voucher-on-birthday',
      question: 'can I send my brother a voucher that lands in his inbox on the morning of his birthday, even if I buy it today?',
      answeredBy: ['policy-gift-cards'],
    },
    {
      id: 'tent-spot-puddle',
      question: "first time camping with the kids! where should we put the tent so we don't wake up in a puddle?",
      answeredBy: ['howto-pitch-tent'],
    },
    {
      id: 'flush-without-syringe',
      question: 'lost the little plunger thing that came with my squeeze filter. how do I clean it out mid-trip?',
      answeredBy: ['howto-clean-water-filter'],
    },
    {
      id: 'guest-no-login',
      question: "I've always just bought stuff without signing up. Why can't I log in with my email?",
      answeredBy: ['howto-reset-password'],
    },
    {
      id: 'stop-order-quickly',
      question: 'ordered the wrong size about 10 minutes ago, can I still stop it going out?',
      answeredBy: ['howto-change-order-address'],
    },
    {
      id: 'flagship-parking',
      question: 'driving to your main shop in Oregon on saturday, is there somewhere to leave the car?',
      answeredBy: ['page-store-locations'],
    },
    {
      id: 'rental-money-back',
      question: 'if I hire a tent and end up loving it, is the money I spent on the hire just gone?',
      answeredBy: ['service-rental'],
    },
    {
      id: 'flat-feet-help',
      question: 'I have really flat feet. Can someone at the shop help me find walking footwear that works for me?',
      answeredBy: ['service-boot-fitting'],
    },
    {
      id: 'knees-downhill',
      question: 'going downhill absolutely wrecks my knees, is there anything you sell that helps?',
      answeredBy: ['poles-switchback-carbon'],
    },
  ]),
  ...section('paraphrase', 'held-out', [
    {
      id: 'powered-pitch-lead',
      question:
        "we've booked a campsite pitch with electricity - is there a way to get the extension lead into your big family tent?",
      answeredBy: ['tent-basecamp-4'],
    },
    {
      id: 'festival-kids-bag',
      question: 'what should my kids sleep in at a music festival in july? things always end up a bit damp in the tent',
      answeredBy: ['sleeping-bag-meadow-plus5'],
    },
    {
      id: 'mat-without-lungs',
      question: "does the air mattress come with something so I'm not red in the face blowing it up every night?",
      answeredBy: ['pad-cloudrest'],
    },
    {
      id: 'armpit-vents',
      question: 'rain coat with openings under the arms to dump heat on steep climbs?',
      answeredBy: ['jacket-stormshell'],
    },
    {
      id: 'running-shoe-hiker',
      question: "i hate clunky boots. got anything that's basically a running shoe but for walking trails?",
      answeredBy: ['boots-scree-low'],
    },
    {
      id: 'big-pot-scouts',
      question: "cooking for a dozen scouts out of one massive pot - which of your burners won't topple over?",
      answeredBy: ['stove-everfuel'],
    },
    {
      id: 'farm-runoff',
      question: 'would the squeeze filter make water from a ditch next to farm fields safe? worried about pesticides',
      answeredBy: ['filter-clearflow-squeeze'],
    },
    {
      id: 'credit-bonus',
      question: 'Do I get anything extra if I take a voucher instead of my money back?',
      answeredBy: ['policy-refunds'],
    },
    {
      id: 'honolulu-tomorrow',
      question: "I'm in Honolulu - can I get my order by tomorrow if I pay extra?",
      answeredBy: ['policy-shipping-domestic'],
    },
    {
      id: 'phone-wallet',
      question: 'can I pay on the website by tapping my phone instead of typing all my card details in?',
      answeredBy: ['policy-payment-methods'],
    },
    {
      id: 'purchase-history-kept',
      question: "how long do you hang on to the records of everything I've bought?",
      answeredBy: ['policy-privacy'],
    },
    {
      id: 'big-spender-perks',
      question: 'if I spend a lot with you over the year, do I get anything like faster delivery?',
      answeredBy: ['policy-loyalty'],
    },
    {
      id: 'heel-slipping',
      question: 'my heel keeps rising in my new boots with every step, is there a trick to stop it?',
      answeredBy: ['howto-break-in-boots', 'service-boot-fitting'],
    },
    {
      id: 'login-attempts',
      question: "kept getting my login wrong and now the site won't even let me try again",
      answeredBy: ['howto-reset-password'],
    },
    {
      id: 'dispatch-no-update',
      question: "got the dispatch email yesterday but the courier's website still shows nothing at all",
      answeredBy: ['howto-track-order'],
    },
    {
      id: 'pins-and-needles',
      question: 'My hands get pins and needles after an hour or so with my big pack on. Is that normal?',
      answeredBy: ['howto-fit-backpack'],
    },
    {
      id: 'free-look-first',
      question: 'do you charge just to look at broken gear and tell me what it would cost?',
      answeredBy: ['service-repair'],
    },
    {
      id: 'journalist',
      question: "I'm a journalist writing a piece about your company. Who should I get in touch with?",
      answeredBy: ['page-contact'],
    },
    {
      id: 'fleece-under-shell-size',
      question: 'should I go a size up in a rain shell if I want to wear a fleece under it?',
      answeredBy: ['page-size-guide'],
    },
    {
      id: 'head-torch-night',
      question: "need a head torch that won't blind my mates when I'm rummaging around the tent at 3am",
      answeredBy: ['headlamp-beacon-350'],
    },
  ]),
];

const misspelled: EvalQuestion[] = [
  ...section('misspelled', 'tuning', [
    { id: 'stormshell-pit-zips-typo', question: 'does the stormshel have pit zipps', answeredBy: ['jacket-stormshell'] },
    { id: 'used-stove-return-typo', question: 'can i send back a stove ive allready used once', answeredBy: ['policy-returns'] },
    {
      id: 'trailhead-freestanding-typo',
      question: 'is the trailhead 2 freestandng',
      answeredBy: ['tent-trailhead-2', 'howto-pitch-tent'],
    },
    {
      id: 'seattle-rental-typo',
      question: 'can i rent a tnet at the seatle store?',
      answeredBy: ['service-rental', 'page-store-locations'],
    },
    {
      id: 'portland-saturday-typo',
      question: 'what are the sotre hours in portland on saturday',
      answeredBy: ['page-store-locations'],
    },
    { id: 'alaska-next-day-typo', question: 'do you do next day delievery to alaska', answeredBy: ['policy-shipping-domestic'] },
    { id: 'torso-measure-typo', question: 'how to mesure torso lenght for a backpak', answeredBy: ['howto-fit-backpack'] },
    { id: 'everfuel-boil-typo', question: 'whats the boil tiem on the everfeul', answeredBy: ['stove-everfuel'] },
    { id: 'new-zealand-typo', question: 'do you ship to new zeland?', answeredBy: ['policy-shipping-international'] },
    { id: 'poles-length-typo', question: 'what lenght do the switchback poles go to', answeredBy: ['poles-switchback-carbon'] },
  ]),
  ...section('misspelled', 'held-out', [
    { id: 'basin-flow-typo', question: 'whats the flow rate on the gravty filtre', answeredBy: ['filter-basin-gravity'] },
    { id: 'refund-card-typo', question: 'how long until my refund shows up on my credt card', answeredBy: ['policy-refunds'] },
    { id: 'cloudrest-wide-weight-typo', question: 'how much does the cloudrest wide lnog weigh', answeredBy: ['pad-cloudrest'] },
    { id: 'meadow-limit-typo', question: 'whats the limit temp on the medow bag', answeredBy: ['sleeping-bag-meadow-plus5'] },
    { id: 'backflush-typo', question: 'how do i bakflush my squeeze fillter', answeredBy: ['howto-clean-water-filter'] },
    { id: 'split-pay-minimum-typo', question: 'whats the minimun order for split pay', answeredBy: ['policy-payment-methods'] },
    {
      id: 'exchange-size-typo',
      question: 'i orderd the wrong size boots, can i exchnage them',
      answeredBy: ['policy-returns', 'howto-change-order-address'],
    },
    {
      id: 'ember-own-pocket-typo',
      question: 'does the ember jakcet pack into its own pocket',
      answeredBy: ['jacket-ember-down'],
    },
    {
      id: 'summit-points-typo',
      question: 'how many points per dollar do i get as a sumit member',
      answeredBy: ['policy-loyalty'],
    },
    { id: 'warranty-email-typo', question: 'warrenty claim email adress?', answeredBy: ['policy-warranty', 'page-contact'] },
    {
      id: 'headlamp-charge-typo',
      question: 'how long does the beacon hedlamp last on one charge',
      answeredBy: ['headlamp-beacon-350'],
    },
  ]),
];

const twoSources: EvalQuestion[] = [
  ...section('two-sources', 'tuning', [
    {
      id: 'rent-then-buy-trailhead',
      question:
        'Thinking of renting the Trailhead 2 for a weekend to try it out. If I like it and buy one straight after, what will I have paid in total?',
      answeredBy: ['service-rental', 'tent-trailhead-2'],
    },
    {
      id: 'granite-us-12',
      question: "do the granite mids come in my size? I'm a US men's 12",
      answeredBy: ['page-size-guide', 'boots-granite-mid'],
    },
    {
      id: 'rental-points',
      question: 'if I rent the basecamp 4 for a weekend do I get reward points for that, and how many?',
      answeredBy: ['service-rental', 'policy-loyalty'],
    },
    {
      id: 'basin-to-toronto',
      question: 'How much is shipping on the Basin gravity filter to Toronto, and will I owe anything at the door?',
      answeredBy: ['filter-basin-gravity', 'policy-shipping-international'],
    },
    {
      id: 'basecamp-split-pay',
      question: 'Could I use Split Pay for the Basecamp 4? How much would each payment be?',
      answeredBy: ['tent-basecamp-4', 'policy-payment-methods'],
    },
    {
      id: 'meadow-rockies-may',
      question: 'Would the Meadow be warm enough for a camping trip up in the Rockies in May?',
      answeredBy: ['sleeping-bag-meadow-plus5', 'howto-sleeping-bag-rating'],
    },
    {
      id: 'granite-worn-tread',
      question:
        'the tread on my 4 year old granite mids is worn smooth. is that a warranty thing, and if not how long would a resole take?',
      answeredBy: ['policy-warranty', 'service-repair'],
    },
    {
      id: 'trailhead-vs-basecamp-rain',
      question: 'which one keeps the rain out better, the trailhead 2 or the basecamp 4?',
      answeredBy: ['tent-trailhead-2', 'tent-basecamp-4'],
    },
  ]),
  ...section('two-sources', 'held-out', [
    {
      id: 'uk-stormshell-all-in',
      question: "I'm in Manchester. What would a Stormshell cost me all in, with delivery and any import charges?",
      answeredBy: ['policy-shipping-international', 'jacket-stormshell'],
    },
    {
      id: 'ember-big-chest',
      question: "My chest is about 125 cm. Does the Ember come in a men's size that big?",
      answeredBy: ['page-size-guide', 'jacket-ember-down'],
    },
    {
      id: 'fitting-and-rental-store',
      question: 'I want to get boots fitted and pick up a rental tent on the same trip. Which of your stores does both?',
      answeredBy: ['service-boot-fitting', 'service-rental', 'page-store-locations'],
    },
    {
      id: 'squeeze-free-shipping',
      question: "I'm in Texas. If I just order the squeeze filter on its own, is delivery free?",
      answeredBy: ['filter-clearflow-squeeze', 'policy-shipping-domestic'],
    },
    {
      id: 'summit-pack-points',
      question: "how many reward points would I get for buying the summit 55? I'm just on the normal level",
      answeredBy: ['backpack-summit-55', 'policy-loyalty'],
    },
    {
      id: 'pocketflame-snow',
      question: 'Will my PocketFlame be ok for a snow camping trip in January, or should I be looking at a different stove?',
      answeredBy: ['stove-pocketflame', 'stove-everfuel'],
    },
    {
      id: 'ridgeline-vs-trailhead-weight',
      question: 'How much weight would I save by taking the Ridgeline instead of the Trailhead 2?',
      answeredBy: ['tent-ridgeline-1', 'tent-trailhead-2'],
    },
    {
      id: 'switchback-for-ridgeline',
      question: 'would the switchback poles work for pitching the ridgeline 1?',
      answeredBy: ['poles-switchback-carbon', 'tent-ridgeline-1'],
    },
  ]),
];

const unanswerable: EvalQuestion[] = [
  ...section('unanswerable', 'tuning', [
    { id: 'trailhead-colours', question: 'what colours does the trailhead 2 come in?', answeredBy: [] },
    { id: 'bear-canister', question: 'do you sell bear canisters? doing the sierra nevada this summer', answeredBy: [] },
    { id: 'military-discount', question: 'Do you have a military or veterans discount?', answeredBy: [] },
    {
      id: 'wedding-registry',
      question: "Do you do a wedding registry? We'd much rather get camping gear than toasters",
      answeredBy: [],
    },
    { id: 'climbing-ropes', question: 'do you stock climbing ropes and harnesses', answeredBy: [] },
    { id: 'camping-permit', question: 'do I need a permit to camp overnight in the Cascades?', answeredBy: [] },
    { id: 'freeze-dried-meals', question: 'do you sell freeze dried meals for backpacking', answeredBy: [] },
    { id: 'black-friday', question: 'when does your black friday sale start this year?', answeredBy: [] },
    { id: 'basecamp-floor-rating', question: "what's the waterproof rating of the basecamp 4's floor?", answeredBy: [] },
    { id: 'altitude-sickness', question: 'how do I avoid altitude sickness on a 4000 m peak?', answeredBy: [] },
  ]),
  ...section('unanswerable', 'held-out', [
    { id: 'gift-wrap', question: 'can you gift wrap my order and put a handwritten note in with it?', answeredBy: [] },
    { id: 'gear-tester', question: 'how can I sign up to test your new gear before it comes out?', answeredBy: [] },
    { id: 'trek-food-amount', question: 'roughly how much food per day should I pack for a week-long trek?', answeredBy: [] },
    {
      id: 'daytrip-waterproof',
      question: 'is the daytrip 22 waterproof? my laptop would be in it on rainy commutes',
      answeredBy: [],
    },
    { id: 'email-signup-discount', question: 'do I get a discount code for signing up to your emails?', answeredBy: [] },
    { id: 'wheelchair-access', question: 'is the portland store wheelchair accessible?', answeredBy: [] },
    {
      id: 'scout-bulk-discount',
      question: 'I run a scout troop and we need 12 sleeping bags. Any discount for a bulk order like that?',
      answeredBy: [],
    },
    { id: 'cloudrest-weight-limit', question: "is there a max weight for the cloudrest? I'm around 130 kg", answeredBy: [] },
    {
      id: 'pocketflame-canister-boils',
      question: 'how many litres can I boil with one 230 g gas canister on the pocketflame?',
      answeredBy: [],
    },
  ]),
];

const offTopic: EvalQuestion[] = [
  ...section('off-topic', 'tuning', [
    { id: 'jupiter-moons', question: 'how many moons does jupiter have', answeredBy: [] },
    { id: 'super-bowl-2019', question: 'who won the super bowl in 2019?', answeredBy: [] },
    { id: 'center-div', question: 'how do i center a div in css', answeredBy: [] },
    { id: 'percent-maths', question: "what's 17% of 2,340?", answeredBy: [] },
    { id: 'fruit-flies', question: 'how do I get rid of fruit flies in my kitchen', answeredBy: [] },
    { id: 'runny-egg', question: 'how long do I boil an egg for a runny yolk?', answeredBy: [] },
    { id: 'bored-joke', question: "i'm so bored at work today, tell me a joke", answeredBy: [] },
    { id: 'freelancer-taxes', question: 'how do I file my taxes as a freelancer in the US?', answeredBy: [] },
    { id: 'oven-conversion', question: 'convert 350 fahrenheit to celsius for my oven', answeredBy: [] },
    { id: 'cover-letter', question: 'write a cover letter for a barista job at a coffee shop', answeredBy: [] },
    { id: 'python-plotting', question: 'best python library for plotting graphs?', answeredBy: [] },
  ]),
  ...section('off-topic', 'held-out', [
    { id: 'cat-limerick', question: 'write me a limerick about my cat stealing socks', answeredBy: [] },
    {
      id: 'double-free-c',
      question: 'my C program segfaults when I free the same pointer twice, why does that happen?',
      answeredBy: [],
    },
    { id: 'good-morning-japanese', question: 'how do you say good morning in japanese', answeredBy: [] },
    { id: 'puppy-name', question: "what's a good name for a golden retriever puppy?", answeredBy: [] },
    { id: 'entanglement-eli5', question: "explain quantum entanglement like I'm five", answeredBy: [] },
    { id: 'ai-takeover', question: 'do you think AI will take over the world one day?', answeredBy: [] },
    { id: 'tired-of-questions', question: 'do you ever get tired of answering questions all day?', answeredBy: [] },
    { id: 'croc-vs-alligator', question: "what's the difference between a crocodile and an alligator", answeredBy: [] },
    { id: 'berlin-wall', question: 'what year did the berlin wall come down', answeredBy: [] },
    { id: 'apple-ceo', question: 'who is the CEO of Apple?', answeredBy: [] },
    { id: 'tokyo-population', question: "what's the population of tokyo", answeredBy: [] },
  ]),
];

export const hardQuestions: EvalQuestion[] = [
  ...plain,
  ...paraphrase,
  ...misspelled,
  ...twoSources,
  ...unanswerable,
  ...offTopic,
];
