// A plain BM25 ranking over each tool's id and description: the bag-of-words baseline the selection
// figures are set beside. Words are split at camelCase, snake_case, kebab-case and punctuation and
// lower-cased; no stemming, no lexicon, no method or path features (k1 1.2, b 0.75).

const K1 = 1.2;
const B = 0.75;

function wordsOf(text) {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
}

/**
 * @param {Array<{ id: string, description?: string }>} tools
 * @returns {(request: string) => Array<{ tool: object, score: number }>} ranks every tool with a positive score, best first
 */
export function createBm25Ranking(tools) {
  const documents = tools.map((tool) => wordsOf(`${tool.id} ${tool.description ?? ''}`));
  const averageLength = documents.reduce((sum, words) => sum + words.length, 0) / Math.max(1, documents.length);
  const documentFrequency = new Map();
  const termCounts = documents.map((words) => {
    const counts = new Map();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const word of counts.keys()) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
    return counts;
  });
  const inverse = (word) => {
    const frequency = documentFrequency.get(word) ?? 0;
    return Math.log(1 + (documents.length - frequency + 0.5) / (frequency + 0.5));
  };
  return (request) => {
    const query = [...new Set(wordsOf(request))];
    const scored = [];
    for (const [index, counts] of termCounts.entries()) {
      let score = 0;
      for (const word of query) {
        const frequency = counts.get(word);
        if (!frequency) continue;
        score += (inverse(word) * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * documents[index].length) / averageLength));
      }
      if (score > 0) scored.push({ tool: tools[index], score });
    }
    return scored.sort((left, right) => right.score - left.score);
  };
}
