// A generated model's Standard Schema object (`flux2ProQueueSchema`) handed to two libraries that take
// one, each through the local server on 127.0.0.1: the Vercel AI SDK's `tool({ inputSchema })` (it reads
// `~standard.jsonSchema` for draft-07 and validates the model's tool call with `~standard.validate`) in a
// generateText loop with the local chat model, whose tool runs `flux2ProRun`; and the MCP TypeScript SDK
// (v2), whose server registers a tool with it as the input schema (draft 2020-12 in `tools/list`; each
// `tools/call` validated with it) and whose client calls that tool.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Client as McpClient } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { asSchema, generateText, stepCountIs, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { flux2ProQueueSchema, flux2ProRun, type Flux2ProQueueParams } from '../../generated/models/flux-2-pro.ts';
import { createTransport, type Transport } from '../../runtime/index.ts';

const KEY = 'sk-standard-0123456789SECRET';
// The local chat model fills a tool call's string arguments with the prompt: the user's own name
// makes `target_namespace` one the user may act in.
const USER = 'alice';

let server: LocalServer;
let transport: Transport;
beforeAll(async () => {
  server = await startServer({ workerDelayMs: 20, users: { [KEY]: { user: USER, orgs: [] } } });
  transport = createTransport({ apiKey: KEY, baseUrl: server.url });
});
afterAll(async () => {
  await server?.close();
});

/** How many times a tool ran. */
let runs = 0;
/** Runs the queue body a tool received and answers with the outcomes' statuses. */
async function generate(params: Flux2ProQueueParams): Promise<string[]> {
  runs++;
  const outcomes = await flux2ProRun(transport, params);
  return outcomes.map((o) => o.status);
}

describe('Vercel AI SDK', () => {
  it('takes the schema as a tool input schema: the draft-07 JSON Schema goes to the model, the call is validated and run', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const provider = createOpenAICompatible({
      name: 'oxen',
      baseURL: `${server.url}/api/ai`,
      apiKey: KEY,
      // records each request body, then sends it
      fetch: async (input, init) => {
        sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
        return fetch(input, init);
      },
    });
    const tools = {
      generate_image: tool({
        description: 'Generate an image with flux-2-pro',
        inputSchema: flux2ProQueueSchema,
        execute: async (input) => {
          expectTypeOf(input).toEqualTypeOf<Flux2ProQueueParams>();
          return generate(input);
        },
      }),
    };
    const r = await generateText({
      model: provider.chatModel('gpt-4o-mini'),
      prompt: USER,
      tools,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(r.steps).toHaveLength(2);
    const call = r.steps[0]!.toolCalls[0]!;
    expect(call.toolName).toBe('generate_image');
    expect(call.input).toMatchObject({ prompt: USER, aspect_ratio: '1:1', num_generations: 1 });
    expect(r.steps[0]!.toolResults[0]!.output).toEqual(['succeeded']);
    expect(r.text).toBe(`Tool results: ${JSON.stringify(['succeeded'])}`);
    // the tool's parameters as the model saw them: the model's schema in draft-07, closed
    const tools0 = sent[0]!['tools'] as Array<{ function: { parameters: Record<string, unknown> } }>;
    const parameters = tools0[0]!.function.parameters;
    expect(parameters['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(parameters['required']).toEqual(['prompt']);
    expect(parameters['additionalProperties']).toBe(false);
    expect(Object.keys(parameters['properties'] as object)).toEqual(
      Object.keys(flux2ProQueueSchema['~standard'].jsonSchema.input({ target: 'draft-07' })['properties'] as object),
    );
  });

  it("rejects a tool call's input with the schema's issues (AI SDK's own validation path)", async () => {
    const schema = asSchema(flux2ProQueueSchema);
    const bad = await schema.validate!({ prompt: 'a fox', aspect_ratio: '2:1', input_image: ['a', 1] });
    expect(bad.success).toBe(false);
    const cause = (bad as { error: { cause: unknown } }).error.cause;
    expect(cause).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: ['aspect_ratio'], message: expect.stringContaining('must be one of') }),
        { message: 'must be string', path: ['input_image', 1] },
      ]),
    );
    const good = await schema.validate!({ prompt: 'a fox' });
    expect(good).toEqual({ success: true, value: { prompt: 'a fox' } });
  });
});

describe('MCP TypeScript SDK (v2)', () => {
  let client: McpClient;
  let mcp: McpServer;
  beforeAll(async () => {
    mcp = new McpServer({ name: 'images', version: '1.0.0' });
    mcp.registerTool(
      'generate_image',
      { description: 'Generate an image with flux-2-pro', inputSchema: flux2ProQueueSchema },
      async (args) => {
        expectTypeOf(args).toEqualTypeOf<Flux2ProQueueParams>();
        return { content: [{ type: 'text', text: JSON.stringify(await generate(args)) }] };
      },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    client = new McpClient({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client?.close();
    await mcp?.close();
  });

  it('lists the tool with the draft 2020-12 JSON Schema as its input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['generate_image']);
    expect(tools[0]!.inputSchema).toEqual(
      flux2ProQueueSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }),
    );
    expect(tools[0]!.inputSchema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('runs a valid call through the local server', async () => {
    const result = await client.callTool({
      name: 'generate_image',
      arguments: { prompt: 'a fox', aspect_ratio: '16:9', num_generations: 2 },
    });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(['succeeded', 'succeeded']) }]);
  });

  it('refuses an invalid call with the issues, each named by its path, before the tool runs', async () => {
    const before = runs;
    const result = await client.callTool({
      name: 'generate_image',
      arguments: { prompt: 'a fox', aspect_ratio: '2:1', input_image: ['a', 1], extra: true },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
    expect(text).toContain('aspect_ratio: must be one of "1:1"');
    expect(text).toContain('input_image.1: must be string');
    expect(text).toContain('extra: is not a parameter of this model');
    expect(runs).toBe(before);
  });
});
