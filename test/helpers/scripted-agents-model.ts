import { Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';

/** One turn of a scripted model: call a tool with this input, or answer with text. */
export type ScriptedAgentsStep = { call: string; input: unknown } | { say: string };

/** An OpenAI Agents SDK Model that plays a script, one response per turn, and keeps every request it was given. */
export function scriptedAgentsModel(script: ScriptedAgentsStep[]): { model: Model; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  let turn = 0;
  const model: Model = {
    async getResponse(request): Promise<ModelResponse> {
      requests.push(request);
      const step = script.shift();
      if (!step) throw new Error('the script has no step left');
      turn++;
      const output =
        'call' in step
          ? [{ type: 'function_call' as const, id: `fc_${turn}`, callId: `call_${turn}`, name: step.call, arguments: JSON.stringify(step.input), status: 'completed' as const }]
          : [{ type: 'message' as const, id: `msg_${turn}`, role: 'assistant' as const, status: 'completed' as const, content: [{ type: 'output_text' as const, text: step.say }] }];
      return { usage: new Usage(), output };
    },
    // eslint-disable-next-line require-yield -- the runs here never stream
    async *getStreamedResponse() {
      throw new Error('not used');
    },
  };
  return { model, requests };
}
