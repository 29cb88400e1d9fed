import { join } from 'node:path';
import { AicapError } from '../../errors/aicap-error.js';
import { invalidOptionError } from '../../errors/invalid-option-error.js';
import type { EmbedTexts } from './select-tools-with-embeddings.js';

/** Options of {@link createTransformersEmbedder}. */
export interface TransformersEmbedderOptions {
  /**
  Directory that holds the model in the Hugging Face layout: `<modelDirectory>/<model>/` with
  `config.json`, `tokenizer.json` and `onnx/model.onnx` (e.g. a copy of `Xenova/all-MiniLM-L6-v2`).
  Nothing is downloaded: the model must be there.
  */
  modelDirectory: string;
  /**
  Name of the model's folder inside `modelDirectory`.

  @default 'all-MiniLM-L6-v2'
  */
  model?: string;
}

/**
 * An embedding function for {@link selectToolsWithEmbeddings} that runs a sentence-embedding model
 * on this machine with `@huggingface/transformers` (an optional peer: `npm install
 * @huggingface/transformers`), from a local model directory only, never the network. The package and
 * the model load on the first call, not before; texts are mean-pooled and normalised.
 *
 * Throws `INVALID_OPTION` at once without a `modelDirectory`; the first call rejects with
 * `INVALID_OPTION` when the model folder does not exist and `DEPENDENCY_MISSING` when the package is
 * not installed.
 */
export function createTransformersEmbedder(options: TransformersEmbedderOptions): EmbedTexts {
  if (typeof options?.modelDirectory !== 'string' || options.modelDirectory === '')
    throw invalidOptionError('modelDirectory', 'the directory that holds the model folder', options?.modelDirectory, { of: 'createTransformersEmbedder' });
  const model = options.model ?? 'all-MiniLM-L6-v2';
  let extractor: Promise<FeatureExtractor> | undefined;
  return async (texts) => {
    extractor ??= assertModelFolder(join(options.modelDirectory, model))
      .then(() => loadExtractor(options.modelDirectory, model))
      .catch((error: unknown) => {
        extractor = undefined;
        throw error;
      });
    const output = await (await extractor)(texts, { pooling: 'mean', normalize: true });
    return output.tolist() as number[][];
  };
}

/** The part of `@huggingface/transformers` used here, typed locally so that aicap compiles without the optional peer. */
interface TransformersModule {
  env: { localModelPath: string; allowRemoteModels: boolean };
  pipeline(task: 'feature-extraction', model: string, options: { local_files_only: boolean }): Promise<FeatureExtractor>;
}
type FeatureExtractor = (texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<{ tolist(): unknown }>;

// A variable specifier: the optional peer is resolved at run time only, on the first call.
const TRANSFORMERS_PACKAGE = '@huggingface/transformers';

async function loadExtractor(modelDirectory: string, model: string): Promise<FeatureExtractor> {
  let transformers: TransformersModule;
  try {
    transformers = (await import(TRANSFORMERS_PACKAGE)) as TransformersModule;
  } catch (error) {
    throw new AicapError('DEPENDENCY_MISSING', 'createTransformersEmbedder needs the optional peer dependency @huggingface/transformers (^4.3): run `npm install @huggingface/transformers`.', {
      cause: error,
    });
  }
  // The library's settings are process-wide: local files only, from this directory.
  transformers.env.localModelPath = modelDirectory;
  transformers.env.allowRemoteModels = false;
  return transformers.pipeline('feature-extraction', model, { local_files_only: true });
}

// A variable specifier, like the optional peer's: `aicap/tools` must bundle for browsers and edge
// runtimes, where a literal `node:` import would be resolved (and fail) at build time; this embedder
// runs only in Node, and only its first call loads the file-system module.
const FILE_SYSTEM_MODULE = 'node:fs/promises';

/** The model folder must exist; checked on the first call (see `FILE_SYSTEM_MODULE`). */
async function assertModelFolder(folder: string): Promise<void> {
  const { access } = (await import(FILE_SYSTEM_MODULE)) as { access(path: string): Promise<void> };
  try {
    await access(folder);
  } catch {
    throw new AicapError(
      'INVALID_OPTION',
      `createTransformersEmbedder found no model folder ${JSON.stringify(folder)}: put the model there (config.json, tokenizer.json, onnx/model.onnx) or pass \`modelDirectory\` and \`model\` naming where it is.`,
    );
  }
}
