/**
 * Evaluation corpus: the help centre of "Northwind Outfitters", a fictional outdoor-gear shop.
 * Written for this project. Items are shaped like elements of `items` in `POST /ingest/bulk`
 * (note: the citation URL lives in `data.url`; the schema rejects unknown top-level fields).
 *
 * Several items are deliberately close to each other (three tents, two sleeping bags, two boots,
 * two stoves, two filters; returns vs refunds vs warranty; domestic vs international shipping;
 * washing down vs re-proofing a shell; waxing vs breaking in boots) so that ranking is not trivial,
 * and the questions in `questions.ts` often use other words than the texts ("send back" / "return").
 *
 * The trekking poles and the headlamp came with the harder set (`hard-questions.ts`): the poles can
 * only be matched to the trekking-pole shelter by combining both texts (neither names the other),
 * and the headlamp's cold-weather advice (keep it in your sleeping bag) is a near miss for questions
 * about a frozen water filter.
 */

export type EvalSourceType = 'PRODUCT' | 'ARTICLE' | 'SERVICE' | 'PAGE';

export interface EvalItem {
  integrationId: string;
  externalId: string;
  sourceType: EvalSourceType;
  sourceOrigin: string;
  data: {
    title: string;
    content: string;
    url: string;
    sourceData?: Record<string, unknown>;
  };
}

const site = 'https://northwind.example';

function item(
  sourceType: EvalSourceType,
  externalId: string,
  path: string,
  title: string,
  content: string,
  sourceData?: Record<string, unknown>,
): EvalItem {
  return {
    integrationId: 'eval',
    externalId,
    sourceType,
    sourceOrigin: 'eval',
    data: { title, content, url: `${site}${path}`, ...(sourceData ? { sourceData } : {}) },
  };
}

function product(externalId: string, slug: string, title: string, content: string, sku: string, price: number): EvalItem {
  return item('PRODUCT', externalId, `/products/${slug}`, title, content, {
    sku,
    price,
    currency: 'USD',
    vendor: 'Northwind Outfitters',
    inStock: true,
  });
}

/** Plain text, one line per entry. */
const text = (...lines: string[]) => lines.join('\n');
/** Light HTML as the shop and CMS connectors send it. */
const html = (...parts: string[]) => parts.join('');

const products: EvalItem[] = [
  product(
    'tent-trailhead-2',
    'trailhead-2-backpacking-tent',
    'Trailhead 2 Backpacking Tent',
    text(
      'The Trailhead 2 is our freestanding two-person tent for backpackers who watch every gram but still want room to sit up and play cards when it rains. A single hubbed pole frame means it stands on its own without stakes, so you can lift it and move it to a flatter spot after pitching.',
      'Specifications:',
      '- Minimum trail weight: 1.62 kg (inner, fly and poles)',
      '- Packed weight: 1.85 kg with stakes, guylines and stuff sack',
      '- Floor: 213 × 127 cm (2.7 m²); peak height 102 cm',
      '- Two doors and two vestibules of 0.8 m² each',
      '- Fly: 20D ripstop nylon, silicone outside and PU inside, 1,500 mm hydrostatic head',
      '- Floor: 30D nylon, 3,000 mm',
      '- Poles: 8.7 mm aluminium alloy with colour-coded clips',
      'Pitching takes about five minutes once you have practised at home. The fly and the footprint (sold separately, $49) can be pitched without the inner as a fast-and-light shelter.',
      'Care: never leave it packed wet for more than a day; dry it fully at home to prevent mildew. Do not machine wash.',
      'Price: $379.',
    ),
    'NW-TNT-TH2',
    379,
  ),
  product(
    'tent-basecamp-4',
    'basecamp-4-family-tent',
    'Basecamp 4 Family Tent',
    html(
      '<p>A roomy tunnel-dome tent for car campers and families. The Basecamp 4 sleeps four adults, and with 190 cm of peak height most people can stand up straight to get dressed. A removable divider splits the inner into two bedrooms, and the large front porch keeps chairs, boots and a cool box out of the rain.</p>',
      '<ul><li>Sleeps: 4</li><li>Weight: 6.9 kg, a tent for the car rather than for carrying far</li>',
      '<li>Inner floor: 240 × 220 cm; porch 2.4 m²</li><li>Fly: 75D polyester, 3,000 mm hydrostatic head, UV-resistant coating</li>',
      '<li>Poles: fibreglass with a steel front arch</li><li>Windows with zip-close covers, mesh roof vent, flap for an electric hook-up cable</li>',
      '<li>Pitch time: about 15 minutes with two people</li></ul>',
      '<p>Polyester sags less than nylon when it gets wet, so you will not have to re-tension the guylines in the middle of the night. A fitted footprint is sold separately ($59).</p>',
      '<p>Price: $449.</p><p>Care: brush off dirt and let it dry before storing; spot-clean with lukewarm water only.</p>',
    ),
    'NW-TNT-BC4',
    449,
  ),
  product(
    'tent-ridgeline-1',
    'ridgeline-1-ultralight-shelter',
    'Ridgeline 1 Ultralight Trekking-Pole Shelter',
    text(
      'The Ridgeline 1 is a single-wall shelter for one person that weighs only 780 g, because it carries no poles of its own: you pitch it with two trekking poles set to 125 cm (not included; carbon pole adapters are available for $25). It is not freestanding and needs six stakes, so it suits firm ground better than rock slabs or sand.',
      'Fabric: a non-woven composite laminate that does not soak up water or stretch when wet. Floor 210 × 80 cm, peak height 120 cm, one door with a vestibule big enough for a pack. Seams are taped at the factory. Packed size 30 × 12 cm.',
      'Because the wall is a single layer, condensation can form on the inside on cold, still nights. To keep it down, pitch with the door vent open, avoid camping right beside lakes and streams, and wipe the walls with a small cloth in the morning.',
      'Price: $549.',
    ),
    'NW-TNT-RL1',
    549,
  ),
  product(
    'sleeping-bag-aurora-minus7',
    'aurora-minus-7-down-sleeping-bag',
    'Aurora −7 Down Sleeping Bag',
    html(
      '<p>A mummy bag filled with 750 fill-power duck down from certified, traceable farms. It is our warmest bag for its weight, made for shoulder-season trips and mild winter nights in the mountains.</p>',
      '<h3>Temperature ratings (ISO 23537)</h3><ul><li>Comfort: −1 °C</li><li>Limit: −7 °C</li><li>Extreme: −24 °C (survival only)</li></ul>',
      '<h3>Details</h3><ul><li>Weight: 1,150 g (regular), 1,230 g (long)</li><li>Regular fits people up to 183 cm, long up to 198 cm</li>',
      '<li>Shell: 20D nylon with a water-repellent finish</li><li>Full-length two-way zip on the left or right; draught collar and shaped hood</li>',
      '<li>Supplied with a compression stuff sack and a large cotton storage sack</li></ul>',
      '<p>Price: $429 (regular), $459 (long).</p>',
      '<p>Care: store it loose in the cotton sack, never compressed. For washing, follow our guide to cleaning down gear.</p>',
    ),
    'NW-SB-AUR7',
    429,
  ),
  product(
    'sleeping-bag-meadow-plus5',
    'meadow-plus-5-synthetic-sleeping-bag',
    'Meadow +5 Synthetic Sleeping Bag',
    text(
      'The Meadow is a relaxed rectangular bag for summer camping, festivals and sleepovers. Its hollow-fibre synthetic fill keeps insulating when damp and dries quickly, which makes it a good choice for children and for humid weather.',
      'Temperature ratings: comfort +9 °C, limit +5 °C. Not intended for nights below freezing.',
      '- Weight: 1,450 g; packed size 38 × 22 cm',
      '- Size: 205 × 80 cm, fits people up to 190 cm',
      '- Shell and lining: soft recycled polyester',
      '- Two Meadow bags with opposite zips (left and right) can be joined into one double bag',
      '- Opens out flat to use as a quilt',
      'Washing: machine wash at 30 °C on a gentle cycle with a mild detergent, then tumble dry on low or line dry in the shade.',
      'Price: $139.',
    ),
    'NW-SB-MDW5',
    139,
  ),
  product(
    'pad-cloudrest',
    'cloudrest-insulated-sleeping-pad',
    'CloudRest Insulated Sleeping Pad',
    text(
      'The CloudRest is an air pad with synthetic insulation and a reflective film inside. Its R-value of 4.2 is warm enough for three seasons, and for camping on snow when you add a foam pad underneath.',
      '- Thickness: 7.6 cm',
      '- Sizes: regular 183 × 51 cm (540 g), wide-long 196 × 64 cm (720 g)',
      '- Fabric: 40D nylon top, 70D bottom',
      '- Flat one-way inflation valve and a separate deflation valve',
      '- Pump sack included; it doubles as a dry bag',
      'Why the R-value matters: the insulation of a sleeping bag is crushed flat under your body, so it is the pad that stops the cold ground from drawing heat away. A bag only keeps you as warm as its label promises on a pad with enough insulation. As a rule of thumb: R 2 or more for summer, R 3 to 4 for spring and autumn, R 5 and above for winter.',
      'Inflate with the pump sack rather than your breath to keep moisture out of the insulation. Price: $159 (regular), $189 (wide-long).',
    ),
    'NW-PAD-CR',
    159,
  ),
  product(
    'backpack-summit-55',
    'summit-55-trekking-pack',
    'Summit 55 Trekking Pack',
    html(
      '<p>A 55-litre pack for multi-day treks and hut-to-hut routes, with an extension collar that adds another 10 litres when you carry food for a week.</p>',
      '<ul><li>Capacity: 55 + 10 L</li><li>Weight: 1.9 kg</li><li>Adjustable back system for torso lengths from 41 to 53 cm</li>',
      '<li>Comfortable load: up to 20 kg</li><li>Fabric: 210D recycled nylon ripstop with a PFC-free water-repellent finish</li>',
      '<li>Front stretch pocket, sleeping-bag compartment with a zipped divider, two hipbelt pockets, hydration sleeve (bladder not included)</li>',
      '<li>Rain cover stowed in a pocket in the base</li><li>Ice-axe loops and trekking-pole holders</li></ul>',
      '<p>One size; slate blue or rust. Price: $259. As a Northwind-made pack it is covered by our lifetime guarantee against defects in materials and workmanship.</p>',
    ),
    'NW-BP-S55',
    259,
  ),
  product(
    'backpack-daytrip-22',
    'daytrip-22-daypack',
    'Daytrip 22 Daypack',
    text(
      'A light everyday daypack for short hikes and the commute. The padded sleeve takes laptops up to 15 inches, and the tensioned mesh back panel lets air move so your back stays drier on warm days.',
      'Capacity: 22 litres. Weight: 680 g. Fabric: 100% recycled polyester.',
      'Features: side pockets for bottles, key clip, removable hip belt, reflective details and a whistle on the sternum strap. Not designed for loads above 8 kg.',
      'Colours: black, moss and sunset orange. Price: $89. Like every Northwind-made pack it is covered by our lifetime guarantee.',
    ),
    'NW-BP-D22',
    89,
  ),
  product(
    'jacket-stormshell',
    'stormshell-3l-rain-jacket',
    'Stormshell 3L Rain Jacket',
    html(
      '<p>The Stormshell is our fully waterproof, breathable shell for hiking and mountain days when the weather turns properly bad. Its three-layer construction bonds the membrane between the face fabric and a protective inner scrim, so it stays durable under a heavy pack.</p>',
      '<ul><li>Waterproofness 20,000 mm; breathability 20,000 g/m²/24h</li><li>All seams taped</li>',
      '<li>Hood fits over a climbing or ski helmet, with a wired peak and one-hand adjusters</li>',
      '<li>Pit zips for venting; two chest pockets you can reach with a hipbelt on</li>',
      '<li>Weight: 395 g (men’s M)</li><li>Sizes XS–XXL in men’s and women’s cuts</li></ul>',
      '<p>Price: $279.</p><p>Care: machine wash at 30 °C with a technical cleaner; never use fabric softener and do not dry-clean.</p>',
    ),
    'NW-JK-STS',
    279,
  ),
  product(
    'jacket-ember-down',
    'ember-down-jacket',
    'Ember Down Jacket',
    text(
      'Light, warm and tiny when packed: the Ember is a hoodless down jacket for cold evenings in camp, for belays, and as a mid layer under a shell in winter.',
      '- Insulation: 800 fill-power goose down, 110 g of fill (men’s M)',
      '- Total weight: 340 g',
      '- Shell: 10D nylon with a water-repellent finish. It sheds light drizzle and dry snow but it is not waterproof; wear a rain shell over it in wet weather.',
      '- Stuffs into its own left hand pocket, which has a clip-in loop',
      '- Elastic cuffs, drawcord hem, two zipped hand pockets',
      '- Sizes XS–XXL in men’s and women’s cuts; colours black, ember red and glacier',
      'Price: $229. Care: dirty down loses its loft; follow our down washing guide and dry it thoroughly.',
    ),
    'NW-JK-EMB',
    229,
  ),
  product(
    'boots-granite-mid',
    'granite-mid-leather-hiking-boots',
    'Granite Mid Leather Hiking Boots',
    html(
      '<p>A classic mid-cut hiking boot made from a single piece of 2.2 mm full-grain leather, with few seams that could leak or wear through. A waterproof, breathable membrane lining keeps feet dry in wet grass and shallow streams.</p>',
      '<ul><li>Weight: 1,380 g per pair (EU 42)</li><li>Sizes EU 36–48 including half sizes; standard and wide fit</li>',
      '<li>Outsole: rubber with 5 mm multidirectional lugs on a stitched and cemented welt</li>',
      '<li>Can be resoled by our repair workshop, so one pair lasts many years</li><li>Removable moulded footbed</li></ul>',
      '<p>Leather boots need some breaking in before a long hike; our break-in guide explains how.</p>',
      '<p>Care: brush off mud after every trip, let them dry away from heat and wax the leather regularly.</p><p>Price: $239.</p>',
    ),
    'NW-BT-GRM',
    239,
  ),
  product(
    'boots-scree-low',
    'scree-low-hiking-shoes',
    'Scree Low Hiking Shoes',
    text(
      'The Scree Low is a light, trail-runner style hiking shoe for summer paths, travel and fast day hikes. It has no waterproof membrane on purpose: the open mesh lets water drain out and the shoe dries within a few hours, which many hikers prefer to a lined boot that stays wet inside once water comes over the top.',
      'Upper: synthetic mesh with suede overlays. Midsole: EVA foam with a rock plate. Outsole: sticky rubber with 4 mm lugs. Weight: 720 g per pair (EU 42). Drop: 8 mm. Sizes EU 36–48.',
      'No break-in needed. The sole is not replaceable.',
      'Care: rinse with water and air-dry; take out the insoles to speed up drying. Price: $139.',
    ),
    'NW-BT-SCL',
    139,
  ),
  product(
    'stove-pocketflame',
    'pocketflame-canister-stove',
    'PocketFlame Canister Stove',
    text(
      'An ultralight backpacking stove that screws onto a standard threaded gas canister (isobutane/propane mix).',
      '- Weight: 78 g',
      '- Output: 2,800 W',
      '- Boil time: about 3 minutes 30 seconds for 1 litre of water at sea level in still air',
      '- Push-button piezo igniter; folding pot supports for pots from 10 to 20 cm across',
      '- Hard case that fits inside most 750 ml pots',
      'Gas canisters are not included. They are classed as dangerous goods, so we sell them only in our stores and cannot send them by post.',
      'Canister stoves lose power in freezing conditions. Price: $59.',
    ),
    'NW-ST-PF',
    59,
  ),
  product(
    'stove-everfuel',
    'everfuel-multi-fuel-stove',
    'Everfuel Multi-Fuel Expedition Stove',
    html(
      '<p>When you don’t know which fuel you will find at the end of the road, bring the Everfuel. It burns white gas, kerosene and unleaded petrol from a pump-pressurised fuel bottle, and it also runs on screw-on gas canisters with the adapter supplied.</p>',
      '<ul><li>Weight: 410 g (stove only)</li><li>Boil time: 1 litre in about 4 minutes on white gas</li>',
      '<li>Wide, stable legs for big group pots</li><li>Works reliably below freezing and at altitude</li>',
      '<li>Field maintenance kit, pump and windscreen included; fuel bottle sold separately ($29)</li></ul>',
      '<p>Liquid-fuel stoves need priming and a little practice. Clean the jet after every trip when you burn kerosene or petrol, as they leave more soot.</p>',
      '<p>Price: $179.</p>',
    ),
    'NW-ST-EF',
    179,
  ),
  product(
    'filter-clearflow-squeeze',
    'clearflow-squeeze-water-filter',
    'ClearFlow Squeeze Water Filter',
    text(
      'A pocket-sized filter for hikers and travellers. Fill the soft pouch from a stream, screw on the filter and squeeze clean water into your bottle, or drink straight through it.',
      'Filtration: 0.1-micron hollow-fibre membrane. Removes 99.9999% of bacteria (such as E. coli and salmonella), 99.9% of protozoa (such as giardia and cryptosporidium) and microplastics. It does not remove viruses, chemicals or heavy metals; where viruses in water are a concern, also use purification tablets.',
      'Weight: 85 g. Flow: up to 1.7 litres per minute when clean. The membrane lasts for thousands of litres with regular backflushing.',
      'In the box: filter, two 1-litre pouches, backflush syringe and an adapter for standard bottle threads.',
      'Important: do not let a used filter freeze. Ice can crack the fibres without any visible damage, and a filter that has frozen should be replaced.',
      'Price: $45.',
    ),
    'NW-WF-CFS',
    45,
  ),
  product(
    'filter-basin-gravity',
    'basin-6l-gravity-water-filter',
    'Basin 6L Gravity Water Filter',
    html(
      '<p>Hang it from a branch, fill it up and let gravity do the work: the Basin gives a whole camp clean water without pumping or squeezing. Ideal for groups, families and base camps.</p>',
      '<ul><li>Reservoir: 6 litres, with a wide roll-top opening for scooping from lakes</li><li>Flow: about 1.5 litres per minute</li>',
      '<li>Filter: 0.2-micron hollow-fibre cartridge that removes bacteria and protozoa</li><li>Weight: 330 g</li>',
      '<li>Replacement cartridge: $49. Replace it when backflushing no longer brings back the flow.</li></ul>',
      '<p>Price: $119.</p>',
    ),
    'NW-WF-BAS',
    119,
  ),
  product(
    'poles-switchback-carbon',
    'switchback-carbon-trekking-poles',
    'Switchback Carbon Trekking Poles',
    text(
      'A pair of three-section carbon poles for hikers who want support on steep ground without carrying extra weight. On long descents they take a good share of the load off your knees, and on river crossings and loose scree they give you two more points of contact.',
      '- Adjustable length: 105 to 135 cm, set with two external lever locks you can work with gloves on',
      '- Packed length: 62 cm, short enough to strap to the side of a daypack',
      '- Weight: 470 g per pair',
      '- Cork grips that mould to your hand over time, with a foam extension below them for short uphill sections',
      '- Carbide tips, rubber feet for tarmac and bare rock, and small trekking baskets',
      'Tighten the locks only until the sections no longer slip; over-tightening wears the levers. After a wet trip, pull the sections apart and let them dry separately.',
      'Sold as a pair. Price: $139.',
    ),
    'NW-TP-SWC',
    139,
  ),
  product(
    'headlamp-beacon-350',
    'beacon-350-rechargeable-headlamp',
    'Beacon 350 Rechargeable Headlamp',
    text(
      'A bright, light headlamp for night hikes, early alpine starts and finding things in the tent. It charges over USB-C, so there are no batteries to buy or throw away.',
      '- Maximum output: 350 lumens, with a beam that reaches about 80 m',
      '- Run time on one charge: 4 hours at 350 lumens, 12 hours at 100 lumens, 60 hours at 10 lumens',
      '- Full charge in about 3 hours; a four-step gauge shows what is left',
      '- Red light mode keeps your night vision and does not dazzle the people you camp with',
      '- Lock mode stops it switching itself on in your pack',
      '- Waterproof to IPX6: heavy rain is fine, but do not submerge it',
      '- Weight: 76 g with the headband',
      'Cold drains any battery faster; on winter nights keep it in an inside pocket or in your sleeping bag.',
      'Price: $45.',
    ),
    'NW-HL-B350',
    45,
  ),
];

const policies: EvalItem[] = [
  item(
    'ARTICLE',
    'policy-returns',
    '/help/returns',
    'Returns policy',
    html(
      '<h2>Returning an item</h2><p>Changed your mind, or it doesn’t fit? You can return most items within 60 days of delivery for a refund or an exchange. Items must be unused, clean and in their original condition with the tags still attached. Footwear should only have been tried on indoors.</p>',
      '<h2>How to start a return</h2><ol><li>Sign in, open <em>Orders</em> and choose <em>Return items</em> next to the order.</li><li>Select the items and a reason; we email you a prepaid label to print.</li><li>Pack the items securely and hand the parcel in at any post office within 14 days.</li></ol>',
      '<p>Returns within the United States are free when you use our label. Customers outside the US arrange and pay for their own return shipping. You can also bring online orders back to any Northwind store.</p>',
      '<h2>What cannot be returned</h2><ul><li>Used stoves and anything that has held fuel</li><li>Water-filter cartridges once opened, for hygiene reasons</li><li>Gift cards</li><li>Items marked as final sale on the product page</li></ul>',
      '<p>Items that have been used and then develop a fault are handled under our warranty, not as returns. For when and how your money comes back, see our refunds page.</p>',
    ),
  ),
  item(
    'ARTICLE',
    'policy-refunds',
    '/help/refunds',
    'Refunds',
    text(
      'Once your return reaches our warehouse, we inspect it within 3 business days and email you when the refund has been approved.',
      'Where the money goes: refunds are paid to the original payment method. Purchases paid with a gift card are refunded to a new digital gift card. If you prefer, you can take store credit instead, and we add 10% on top.',
      'How long it takes: after approval, card refunds usually appear within 5 to 10 business days, depending on your bank. PayPal refunds normally arrive within 2 business days.',
      'Shipping costs: the original delivery charge is refunded only if the item was faulty or we sent the wrong item.',
      'Partial refunds: if an item comes back used, damaged or without its original packaging, we may refund only part of the price, or send the item back to you.',
      'Still waiting? If more than 15 business days have passed since you dropped off your parcel, contact us with your order number and we will trace it.',
    ),
  ),
  item(
    'ARTICLE',
    'policy-warranty',
    '/help/warranty',
    'Warranty and Northwind lifetime guarantee',
    html(
      '<p>We stand behind what we sell. Every product bought from Northwind Outfitters is covered against defects in materials and workmanship for <strong>two years</strong> from the date of purchase. Backpacks, daypacks and bags made by Northwind carry a <strong>lifetime guarantee</strong> against such defects for as long as you own them.</p>',
      '<h3>What is covered</h3><ul><li>Seams that come apart, zips that fail, waterproof coatings that peel, buckles or pole sections that break without misuse</li></ul>',
      '<h3>What is not covered</h3><ul><li>Normal wear and tear, such as worn-down soles or faded fabric</li><li>Damage from accidents, animals, fire or improper care</li><li>Products altered or repaired by someone else</li></ul>',
      '<h3>How to make a claim</h3><p>Email warranty@northwind.example with your order number, photos of the fault and a short description. If we confirm a defect we repair the item at no cost; if it cannot be repaired, we replace it or, when it is no longer made, give you store credit. Proof of purchase is required.</p>',
      '<p>Anything outside the warranty can still go to our paid repair service.</p>',
    ),
  ),
  item(
    'ARTICLE',
    'policy-shipping-domestic',
    '/help/shipping',
    'Shipping within the United States',
    text(
      'Delivery options and times:',
      '- Standard: 3 to 5 business days; free on orders over $75, otherwise $6.95',
      '- Express: 1 to 2 business days; $14.95',
      '- Next day: order before 12:00 noon Pacific time, Monday to Thursday; $24.95 (not available to Alaska and Hawaii)',
      'Orders placed before 2 pm Pacific on a business day leave our warehouse the same day. Orders placed later, at the weekend or on public holidays are dispatched on the next business day.',
      'We deliver to all 50 states, to APO/FPO military addresses and to PO boxes. PO boxes and military addresses can only be sent by standard shipping.',
      'Large items such as family tents may arrive in a separate parcel.',
      'Restricted goods: gas canisters and liquid fuels are dangerous goods and are never shipped; please buy them in one of our stores.',
      'Free in-store pickup: choose a store at checkout and we email you when the order is ready, usually within 2 hours during opening times.',
    ),
  ),
  item(
    'ARTICLE',
    'policy-shipping-international',
    '/help/international-shipping',
    'International delivery',
    html(
      '<p>We ship to Canada, the United Kingdom, all European Union countries, Norway, Switzerland, Australia, New Zealand and Japan. We are not able to deliver to other countries at present.</p>',
      '<ul><li>Canada: 5–8 business days, $19 flat rate; free over $200</li><li>UK, EU, Norway and Switzerland: 7–12 business days, $29 flat rate</li><li>Australia, New Zealand and Japan: 8–14 business days, $39 flat rate</li></ul>',
      '<p><strong>Duties and taxes.</strong> Orders to Canada and the UK are sent duty-paid: the price at checkout already includes import VAT and duties, and nothing more is due at the door. For all other destinations the courier collects import duties, VAT and a handling fee from you on delivery; we cannot predict or refund these charges.</p>',
      '<p>Prices are charged in US dollars; your card issuer may add a currency conversion fee. For sending items back from abroad, see our returns policy.</p>',
    ),
  ),
  item(
    'ARTICLE',
    'policy-payment-methods',
    '/help/payment',
    'Payment methods',
    text(
      'We accept these ways to pay online:',
      '- Credit and debit cards: Visa, Mastercard, American Express and Discover',
      '- PayPal',
      '- Apple Pay and Google Pay',
      '- Northwind gift cards, which can be combined with another method',
      '- Split Pay: spread orders between $50 and $1,500 over four interest-free instalments, one every two weeks (US billing addresses only, subject to approval)',
      'In our stores you can also pay with cash and contactless cards.',
      'We do not accept cheques, bank transfers, cash on delivery or cryptocurrencies.',
      'When is my card charged? We authorise your card when you place the order and take the payment when the order ships. If an order ships in several parcels, you may see several charges.',
      'All payments go over an encrypted connection, and we never store your full card number.',
    ),
  ),
  item(
    'ARTICLE',
    'policy-price-match',
    '/help/price-match',
    'Price match promise',
    html(
      '<p>If you find an identical item for less at another authorised retailer, we will match the price.</p>',
      '<h3>Conditions</h3><ul><li>Same brand, model, size and colour, in stock at the other retailer</li><li>The lower price is publicly visible on the retailer’s website or in their store, including shipping costs</li>',
      '<li>We do not match marketplace sellers, auction sites, member-only or coupon prices, clearance items or bundle deals</li></ul>',
      '<h3>Price drops on our own site</h3><p>If we lower the price of something you bought from us within 14 days of your purchase, we refund the difference. The same applies if you find a qualifying lower price elsewhere within 14 days after buying.</p>',
      '<h3>How to ask</h3><p>Online, before ordering: chat with us or call and send us a link to the lower price. In store: show the price to a team member at the till. After purchase: email help@northwind.example with your order number within 14 days.</p>',
    ),
  ),
  item(
    'ARTICLE',
    'policy-privacy',
    '/help/privacy',
    'Privacy notice',
    text(
      'What we collect: the details you give us when you order or create an account (name, addresses, email, phone number), your order history, and technical data such as your device and the pages you view on our website. Card details are handled by our payment processor; we never see or store full card numbers.',
      'How we use it: to process and deliver orders, provide customer service, run the Trail Rewards programme, prevent fraud and, only if you agree, send marketing emails.',
      'We never sell your personal information. We share it only with service providers who work for us (for example carriers, payment processing and email delivery) and when the law requires it.',
      'Cookies: essential cookies keep the basket and sign-in working. Analytics and advertising cookies are only set if you accept them in the cookie banner; you can change your choice at any time under "Cookie settings" at the bottom of every page.',
      'Your rights: you can ask for a copy of your data, correct it, or have your account and data erased by emailing privacy@northwind.example. We reply within 30 days. Order records that the law requires us to keep for tax purposes are kept for 7 years.',
      'You can unsubscribe from marketing emails at any time with the link at the bottom of each email.',
    ),
  ),
  item(
    'ARTICLE',
    'policy-gift-cards',
    '/help/gift-cards',
    'Gift cards',
    html(
      '<p>Northwind gift cards come as a digital card sent by email or as a physical card in a recycled-paper envelope, in any amount from $10 to $500.</p>',
      '<ul><li>Gift cards never expire and carry no fees.</li><li>Use them online and in all Northwind stores, and combine several cards on one order.</li>',
      '<li>Check the balance on our gift card page with the 16-digit number and PIN, or ask at any till.</li>',
      '<li>Gift cards cannot be used to buy other gift cards and cannot be exchanged for cash, except where the law requires it.</li>',
      '<li>A lost or stolen physical card can be replaced with its remaining balance if you have the original receipt or order confirmation.</li></ul>',
      '<p>Digital gift cards can be scheduled for a future date, such as a birthday. If the recipient has not received one, ask them to check their spam folder first, then contact us and we will resend it.</p>',
    ),
  ),
  item(
    'ARTICLE',
    'policy-loyalty',
    '/help/trail-rewards',
    'Trail Rewards loyalty programme',
    text(
      'Trail Rewards is free to join: create an account and tick "Join Trail Rewards", or sign up at any till.',
      'Earning: you collect 1 point for every dollar spent on products, rentals and repairs, online and in our stores. Gift card purchases and shipping charges do not earn points.',
      'Rewards: every 500 points turn into a $10 reward voucher, emailed to you automatically. Vouchers are valid for 90 days.',
      'Levels:',
      '- Explorer (every member): points, a birthday bonus of 100 points and early access to sales',
      '- Summit (members who spend $500 or more in a calendar year): everything in Explorer, plus free express shipping, 1.5 points per dollar and one free repair under $40 each year',
      'Points expire when your account has had no purchases for 18 months. Points earned on items you return are deducted again.',
      'You can see your points balance under "Trail Rewards" in your account.',
    ),
  ),
];

const howTos: EvalItem[] = [
  item(
    'ARTICLE',
    'howto-pitch-tent',
    '/guides/how-to-pitch-a-dome-tent',
    'How to pitch a dome tent',
    html(
      '<p>Practise once in the garden or the living room before your trip; it is much easier to learn without wind, rain or darkness. These steps work for freestanding dome tents such as the Trailhead 2 and for the Basecamp 4.</p>',
      '<ol><li><strong>Choose the spot.</strong> Look for flat, slightly raised ground without stones, cones or roots. Avoid hollows where rain collects, and never camp beneath dead branches.</li>',
      '<li><strong>Lay out the footprint</strong>, if you use one, and spread the inner tent on top with the doors where you want them.</li>',
      '<li><strong>Assemble the poles.</strong> Let the shock cord pull each section together; flicking them chips the ends.</li>',
      '<li><strong>Attach the inner</strong> by clipping it to the poles, matching the colour-coded corners to the pole ends.</li>',
      '<li><strong>Throw the fly over</strong>, line up its door with the inner door and buckle it to the corners.</li>',
      '<li><strong>Stake it out.</strong> Drive the pegs in at 45°, leaning away from the tent, then tension the guylines so the fly does not touch the inner.</li></ol>',
      '<p><strong>In wind:</strong> pitch with the narrow, low end facing into the wind, stake the upwind corners first and use every guyline. In strong gusts, keep the fly in its bag until the inner is staked down.</p>',
    ),
  ),
  item(
    'ARTICLE',
    'howto-wax-boots',
    '/guides/how-to-wax-leather-boots',
    'How to wax leather boots',
    text(
      'Wax keeps leather supple and helps it shed water, so your boots stay waterproof and last longer. If you hike regularly, wax leather boots every two to three months, and whenever the leather looks pale and dry or water no longer beads on it.',
      'You need a brush, a damp cloth and a leather wax (we stock one based on beeswax). Do not use wax on suede or fabric boots; use a spray-on proofer for those.',
      '1. Take out the laces and brush off all dirt, including from the welt where the upper meets the sole.',
      '2. Wipe the leather with a damp cloth. Wax goes on best when the leather is slightly damp, not soaking wet.',
      '3. Rub a thin layer of wax into the leather with your fingers or a cloth, working it into seams and creases, where water gets in first.',
      '4. Leave the boots for a few hours or overnight at room temperature. Never speed this up by the fire, on a radiator or with a hairdryer: heat dries out leather and can weaken the glue of the sole.',
      '5. Buff off any excess with a soft cloth and lace up again.',
      'New boots benefit from a coat of wax before their first outing.',
    ),
  ),
  item(
    'ARTICLE',
    'howto-break-in-boots',
    '/guides/breaking-in-hiking-boots',
    'Breaking in new hiking boots',
    html(
      '<p>Stiff leather boots such as the Granite Mid need time to soften and take the shape of your feet. Plan on two to three weeks of gradual wear before a long or multi-day hike.</p>',
      '<ul><li>Start by wearing them at home and on short walks of about an hour, with the socks you will hike in.</li>',
      '<li>Build up the distance gradually; after a week add a light pack and some hills.</li>',
      '<li>Adjust the lacing: if your heel lifts, tie a surgeon’s knot at the top hooks to lock it; if your toes are squeezed, loosen the lower laces.</li>',
      '<li>Hot spots are the first sign of a blister. Stop and tape the spot straight away rather than walking on.</li></ul>',
      '<p>If a boot still presses in the same place after a few weeks, it is probably the wrong shape for your foot, and our in-store fitters can help you find a better match.</p>',
    ),
  ),
  item(
    'ARTICLE',
    'howto-clean-water-filter',
    '/guides/cleaning-a-squeeze-water-filter',
    'Cleaning and storing your squeeze water filter',
    text(
      'If the water slows to a trickle, your filter is not broken: the fibres are clogged with sediment. Backflushing restores the flow, and doing it after every trip makes the filter last much longer.',
      'How to backflush:',
      '1. Fill the syringe that comes with the ClearFlow with clean water (already filtered, or tap water).',
      '2. Push the syringe tip into the drinking side of the filter.',
      '3. Press firmly so the water shoots back through the filter and out of the dirty side. Repeat two or three times until it runs clear.',
      'On the trail without the syringe, you can squeeze clean water backwards from a bottle.',
      'Before storing it for more than a few days, flush it with clean water, shake out as much as you can and let it dry for a day with the caps off. For long-term storage you can sanitise it with a mild bleach solution (2 drops of unscented bleach per litre).',
      'Freezing: water left in the fibres expands when it freezes and can break them without any visible sign. On cold nights keep the filter in a pocket or in your sleeping bag. If you think it has frozen, replace it; there is no reliable way to test it in the field.',
    ),
  ),
  item(
    'ARTICLE',
    'howto-sleeping-bag-rating',
    '/guides/sleeping-bag-temperature-ratings',
    'Choosing a sleeping bag: what the temperature ratings mean',
    html(
      '<p>Most sleeping bags are tested to the international standard ISO 23537 (formerly EN 13537), which gives three figures:</p>',
      '<ul><li><strong>Comfort</strong>: the lowest temperature at which a typical cold sleeper sleeps comfortably in a relaxed position.</li>',
      '<li><strong>Limit</strong>: the lowest temperature at which a typical warm sleeper can sleep curled up for eight hours without waking from cold.</li>',
      '<li><strong>Extreme</strong>: a survival figure only. At this temperature there is a risk of hypothermia; never plan a trip around it.</li></ul>',
      '<p><strong>Which rating should I choose?</strong> If you tend to feel the cold, pick a bag whose comfort rating matches the coldest night you expect; if you sleep warm, go by the limit rating. Nights in the mountains in spring and autumn often drop below freezing even when the days are mild, so a comfort rating around 0 °C is a sensible choice for those seasons.</p>',
      '<p>The ratings assume you wear a base layer and lie on an insulated pad. On a thin or uninsulated mattress you will feel much colder than the label says, so match the pad’s R-value to the season as well.</p>',
    ),
  ),
  item(
    'ARTICLE',
    'howto-reset-password',
    '/help/reset-password',
    'Resetting your account password',
    text(
      'Forgot your password or cannot sign in? Here is how to set a new one.',
      '1. Go to Sign in and click "Forgot password?".',
      '2. Enter the email address of your account and press "Send link".',
      '3. Open the email from Northwind Outfitters and click the reset link within 60 minutes. After that the link expires and you need to request a new one.',
      '4. Choose a new password of at least 10 characters.',
      'No email? Check your spam or promotions folder, and make sure you entered the address you registered with. The email can take up to 10 minutes. If you have only ever checked out as a guest, you do not have an account yet: create one with the same email and your earlier guest orders will appear in it.',
      'After five wrong passwords in a row, your account is locked for 15 minutes to protect it. If you still cannot get in, contact our customer service team.',
    ),
  ),
  item(
    'ARTICLE',
    'howto-track-order',
    '/help/track-your-order',
    'Tracking your order',
    html(
      '<p>As soon as your order leaves our warehouse we send a shipping confirmation email with a tracking number and a link to the carrier’s tracking page. You can also follow every order by signing in and opening <em>Orders</em>.</p>',
      '<p>What the statuses mean:</p><ul><li><strong>Received</strong>: we have your order and the payment authorisation.</li>',
      '<li><strong>Packing</strong>: the order is being picked and packed; changes are no longer possible.</li>',
      '<li><strong>Shipped</strong>: handed to the carrier. The first scan can take up to 24 hours to show in tracking.</li>',
      '<li><strong>Delivered</strong>: the carrier has confirmed delivery.</li></ul>',
      '<p>If tracking says delivered but you cannot find the parcel, ask your neighbours, look around your property and wait until the end of the next business day, as carriers sometimes scan early. Then contact us and we will open an investigation with the carrier.</p>',
      '<p>Orders sent in several parcels get one tracking number per parcel.</p>',
    ),
  ),
  item(
    'ARTICLE',
    'howto-change-order-address',
    '/help/change-or-cancel-an-order',
    'Changing the delivery address or cancelling an order',
    text(
      'Noticed a mistake right after ordering? You have a short window to put it right.',
      'Within 60 minutes of placing your order you can change the delivery address or cancel the order yourself: sign in, open Orders and choose "Edit order" or "Cancel order". Guest customers can use the link in their order confirmation email.',
      'After 60 minutes the order is passed to our warehouse and can no longer be edited online. Call or chat with us as soon as possible; if it has not been packed yet, we can usually still change it.',
      'Already shipped? We cannot redirect parcels ourselves, but you can often ask the carrier to hold the parcel or deliver it elsewhere through the tracking link. If the parcel comes back to us undelivered, we refund you when it arrives, minus the shipping charge.',
      'To swap items or sizes in an order that has already gone out, place a new order and return the items you do not need.',
    ),
  ),
  item(
    'ARTICLE',
    'howto-wash-down',
    '/guides/washing-down-jackets-and-sleeping-bags',
    'Washing down jackets and sleeping bags',
    html(
      '<p>Dirt and body oils make down clump and lose its loft, so a jacket or sleeping bag that feels thin and flat usually just needs a wash. Once or twice a season is enough for most people.</p>',
      '<ol><li>Use a front-loading washing machine; top-loaders with an agitator can tear the baffles.</li>',
      '<li>Close all zips and turn the item inside out.</li>',
      '<li>Use a down-specific wash, never normal detergent or fabric softener, which strip the natural oils from the down.</li>',
      '<li>Wash on a gentle cycle at 30 °C and add an extra rinse.</li>',
      '<li>Tumble dry on low heat with two or three clean tennis balls or dryer balls to break up the clumps. A jacket takes two to three hours, a sleeping bag up to five. Keep going until no clumps are left, because damp down can go mouldy.</li></ol>',
      '<p>Clumps straight after washing are normal and disappear with more drying time. Do not dry-clean down.</p>',
    ),
  ),
  item(
    'ARTICLE',
    'howto-fit-backpack',
    '/guides/how-to-fit-a-backpack',
    'How to fit a backpack',
    text(
      'A well-fitted pack carries most of its weight on your hips, not your shoulders. Choose a pack by your torso length, not by your height.',
      'Measuring your torso: tilt your head forward and feel for the bony bump at the base of your neck (the C7 vertebra). Put your hands on your hips, thumbs pointing backwards, on top of your hip bones. Ask someone to measure along your spine between the bump and the line between your thumbs. The Summit 55, for example, adjusts from 41 to 53 cm.',
      'Adjusting the pack, in this order:',
      '1. Load it with about 10 kg.',
      '2. Hipbelt: centre it on your hip bones and tighten it firmly.',
      '3. Shoulder straps: pull them snug, but they should not carry most of the weight.',
      '4. Load lifters: pull until they make an angle of roughly 45°.',
      '5. Sternum strap: about 2 to 3 cm below your collarbone.',
      'Sore shoulders usually mean the hipbelt sits too low or too loose, or the back length is set too long. Tingling or numb hands point to shoulder straps that are too tight. Our store staff are happy to fit a pack for you.',
    ),
  ),
  item(
    'ARTICLE',
    'howto-reproof-jacket',
    '/guides/restoring-rain-jacket-water-repellency',
    'Restoring the water repellency of a rain jacket',
    html(
      '<p>When rain stops beading and soaks into the outer fabric, your jacket is “wetting out”. The membrane is probably fine, but the durable water-repellent (DWR) finish on the surface has worn off or is clogged with dirt, so the jacket feels clammy and wet inside.</p>',
      '<p><strong>Wash it first.</strong> Dirt and sweat are the most common cause, and a clean jacket often beads again without any treatment.</p>',
      '<ul><li>Machine wash at 30 °C with a technical cleaner, not normal detergent and never fabric softener.</li><li>Rinse twice.</li></ul>',
      '<p><strong>Reactivate with heat.</strong> Tumble dry on low for 20 minutes, or iron on a low setting with a towel between the iron and the jacket, if the care label allows it.</p>',
      '<p><strong>Re-proof if needed.</strong> If water still soaks in, apply a wash-in or spray-on DWR treatment as instructed, then heat again to set it. Spray-on is better for jackets with a wicking lining.</p>',
    ),
  ),
];

const servicePages: EvalItem[] = [
  item(
    'PAGE',
    'page-store-locations',
    '/stores',
    'Store locations and opening hours',
    html(
      '<h2>Portland (flagship)</h2><p>1420 NW Alder Street, Portland, OR 97209. Mon–Sat 9:00–20:00, Sun 10:00–18:00. Repair workshop and rental counter on site. Free customer parking behind the store.</p>',
      '<h2>Seattle</h2><p>88 Harbor Lane, Seattle, WA 98101. Mon–Fri 10:00–20:00, Sat 9:00–19:00, Sun 11:00–17:00. Rental counter on site.</p>',
      '<h2>Denver</h2><p>2600 Larimer Avenue, Denver, CO 80205. Mon–Sat 9:00–19:00, Sun 10:00–17:00. Repair drop-off point; items are repaired in Portland.</p>',
      '<h2>Salt Lake City</h2><p>510 Canyon Road, Salt Lake City, UT 84103. Tue–Sat 10:00–19:00, Sun 11:00–16:00, closed on Mondays.</p>',
      '<h2>Holidays</h2><p>All stores are closed on Thanksgiving Day, Christmas Day and New Year’s Day, and close at 16:00 on Christmas Eve and New Year’s Eve. On other public holidays we open with Sunday hours.</p>',
    ),
  ),
  item(
    'SERVICE',
    'service-repair',
    '/services/repairs',
    'Gear repair service',
    text(
      'Our workshop in Portland repairs outdoor gear of any brand, so a broken zip or a torn tent does not have to mean buying new. Drop items off at our Portland or Denver store, or send them in with the repair form in your account.',
      'Typical prices:',
      '- Zip slider replacement from $20; full zip replacement from $45',
      '- Tent pole section replaced or splinted: $15 per section',
      '- Patch for tents or jackets (tears up to 5 cm): $25',
      '- Sleeping bag baffle or shell repair from $40',
      '- Boot resole (leather boots with a stitched or cemented welt): $95 to $130',
      '- Backpack buckle or strap replacement from $12',
      'Turnaround is 2 to 4 weeks; resoling boots takes 4 to 6 weeks. We send a free quote before any work starts and only go ahead once you agree.',
      'Items must be clean and dry when handed in; we charge a $15 cleaning fee for muddy or mouldy gear.',
      'Faults covered by our warranty are repaired free of charge, so make a warranty claim first. Summit members of Trail Rewards get one repair under $40 free each year.',
    ),
    { category: 'repairs', duration: '2–4 weeks' },
  ),
  item(
    'SERVICE',
    'service-rental',
    '/services/rentals',
    'Gear rental',
    html(
      '<p>Try before you buy, or kit out a one-off trip without filling your garage. Rentals are available from our Portland and Seattle stores.</p>',
      '<ul><li>Trailhead 2 tent: $30 for the first day, $10 for each extra day; weekend (Friday to Monday) $50</li>',
      '<li>Basecamp 4 tent: $40 for the first day, $15 for each extra day; weekend $65</li>',
      '<li>Sleeping bag (Aurora or Meadow): $15 for the first day, $5 for each extra day; weekend $25. Every bag is professionally cleaned after each rental.</li>',
      '<li>Summit 55 backpack: $15 for the first day, $5 for each extra day</li>',
      '<li>PocketFlame stove with pot set: $10 per trip (gas not included)</li><li>CloudRest sleeping pad: $8 per day</li></ul>',
      '<p>How it works: reserve online up to 3 months ahead, collect from 15:00 on the day before your trip and bring everything back by 12:00 on the day after it ends. A deposit of $100 per tent and $50 per other item is held on your card. Late returns cost one extra day per day.</p>',
      '<p>Normal wear is expected; damage beyond that is charged at repair cost. Fell in love with it? Buy the same item new within 14 days and we deduct the rental fee from the price.</p>',
    ),
    { category: 'rentals' },
  ),
  item(
    'PAGE',
    'page-contact',
    '/contact',
    'Contact us',
    text(
      'Our customer service team helps with orders, returns, product advice and anything else.',
      '- Live chat on our website: Monday to Friday 7:00–19:00 and Saturday 9:00–15:00 (Pacific time)',
      '- Phone: +1 503 555 0142, Monday to Friday 7:00–17:00 Pacific time',
      '- Email: help@northwind.example; we answer within one business day',
      '- Warranty claims: warranty@northwind.example',
      '- Privacy requests: privacy@northwind.example',
      'Please have your order number ready; it starts with NW and is in your confirmation email.',
      'Postal address (not for returns; use the address on your return label): Northwind Outfitters Customer Care, PO Box 4410, Portland, OR 97208, USA.',
      'Press and partnership enquiries: press@northwind.example.',
    ),
  ),
  item(
    'SERVICE',
    'service-boot-fitting',
    '/services/boot-fitting',
    'Boot fitting service',
    html(
      '<p>Finding the right hiking boot is easier with help. Our trained fitters measure both feet for length, width and arch height, watch how you walk, and let you compare models on our test ramp.</p>',
      '<ul><li>Free of charge; takes about 45 minutes</li><li>Available in Portland, Seattle and Denver</li>',
      '<li>Walk-ins are welcome, but weekends get busy: book a slot online to avoid waiting</li>',
      '<li>Bring the socks you hike in and any orthotics or insoles you use</li><li>Come in the afternoon if you can, when feet are slightly larger</li></ul>',
      '<p>Custom heat-moulded insoles can be made during the appointment for $49. They help with heel lift, flat arches and pressure points.</p>',
    ),
    { category: 'fitting', price: 0, duration: '45 minutes' },
  ),
  item(
    'PAGE',
    'page-size-guide',
    '/help/size-guide',
    'Size guide: clothing and footwear',
    text(
      'Clothing, by chest measurement in cm (measured around the fullest part):',
      "Men's: S 88–96, M 96–104, L 104–112, XL 112–120, XXL 120–128",
      "Women's: XS 78–84, S 84–90, M 90–96, L 96–104, XL 104–112",
      'Between sizes? Take the larger size for shells you wear over insulation and the smaller one for close-fitting base layers.',
      'Footwear conversion:',
      "EU 40 = US men's 7 = US women's 8.5 = UK 6.5",
      "EU 41 = US men's 8 = US women's 9.5 = UK 7",
      "EU 42 = US men's 8.5 = US women's 10 = UK 8",
      "EU 43 = US men's 9.5 = US women's 11 = UK 9",
      "EU 44 = US men's 10 = US women's 11.5 = UK 9.5",
      "EU 44.5 = US men's 10.5 = UK 10",
      "EU 45 = US men's 11 = UK 10.5",
      "EU 46 = US men's 12 = UK 11",
      'Measure your feet in the afternoon and allow about a thumb’s width (1 to 1.5 cm) in front of your toes for walking downhill.',
    ),
  ),
];

/** Plausible help-centre content that no question asks about: it competes in ranking and should not be cited. */
const distractors: EvalItem[] = [
  item(
    'PAGE',
    'page-about',
    '/about',
    'About Northwind Outfitters',
    text(
      'Northwind Outfitters began in 1998 as a two-person workshop in Portland, Oregon, sewing tarps and stuff sacks for friends who climbed in the Cascades. Today we are a team of around 140 people, but we still design our own packs and take every new product on real trips in the Pacific Northwest and the Rockies before it goes on sale.',
      'We believe the most sustainable gear is the gear you already own. That is why we run a repair workshop, rent out equipment for occasional trips and design products that can be fixed rather than thrown away. Since 2015 we have given 1% of our sales to trail maintenance and conservation groups in the states where we have stores.',
      'Our name comes from the cold, clear wind that blows down from the mountains after a storm: the sign that the weather is turning and it is time to head out.',
    ),
  ),
  item(
    'ARTICLE',
    'news-spring-gear-swap',
    '/journal/spring-gear-swap',
    'Spring Gear Swap weekend: bring your old kit, find new adventures',
    html(
      '<p>On the last weekend of April our Portland and Denver stores turn their car parks into a gear swap. Bring the clean, working outdoor kit you no longer use (tents, packs, jackets, boots, stoves) and we will help you sell it to other hikers or donate it to youth outdoor clubs.</p>',
      '<p>There are also free talks on lightweight packing and trail cooking, coffee from a local roaster, and a repair bench where our technicians show how to patch a tent and fit a new zip puller yourself.</p>',
      '<p>Entry is free. Seller tables are first come, first served from 8:00.</p>',
    ),
  ),
];

export const evalCorpus: EvalItem[] = [...products, ...policies, ...howTos, ...servicePages, ...distractors];

/** Items no question is answered by, on purpose (see `distractors`). */
export const evalDistractorIds: string[] = distractors.map((d) => d.externalId);
