/**
 * Deterministic, realistic items for the benchmark: product and article texts of 500 to 3,000
 * characters, built from a small vocabulary so runs are comparable.
 */
const words = (
  'lightweight durable waterproof breathable ergonomic stainless compact wireless rechargeable premium ' +
  'organic handmade adjustable foldable insulated cotton leather steel bamboo ceramic ' +
  'shoe jacket kettle backpack lamp chair desk bottle blender headphones charger tent mug pan ' +
  'delivery return warranty refund shipping order account password invoice subscription ' +
  'install configure update reset connect pair clean store wash replace ' +
  'quickly easily safely daily weekly always never only also often'
).split(' ');

function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

function sentence(next: () => number): string {
  const length = 8 + Math.floor(next() * 14);
  const picked = Array.from({ length }, () => words[Math.floor(next() * words.length)]!);
  return `${picked[0]![0]!.toUpperCase()}${picked.join(' ').slice(1)}.`;
}

export function benchItem(index: number, prefix: string) {
  const next = random(index * 7919 + 17);
  const targetLength = 500 + Math.floor(next() * 2500);
  let content = '';
  while (content.length < targetLength) content += `${sentence(next)} `;
  const kind = index % 3 === 0 ? 'ARTICLE' : 'PRODUCT';
  return {
    integrationId: 'bench',
    sourceType: kind,
    externalId: `${prefix}-${index}`,
    sourceOrigin: 'bench',
    data: {
      title: `${kind === 'ARTICLE' ? 'Guide' : 'Product'} ${index}: ${sentence(next).slice(0, 40)}`,
      content: kind === 'ARTICLE' ? `<h2>Overview</h2><p>${content.trim()}</p>` : content.trim(),
      url: `https://shop.example.com/${prefix}/${index}`,
      metadata: { sku: `SKU-${index}`, price: Math.round(next() * 20000) / 100 },
    },
  };
}
