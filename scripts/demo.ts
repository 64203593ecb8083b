// `npm run demo`: start the local stand-in server on 127.0.0.1 (ephemeral port) and show the SDK:
// an image generation, a queued video of three generations followed with queue.run (progress and
// outcomes), and a chat completion streamed token by token. Exits 0 and closes the server.
import { Client, type QueueRunOutcome, type QueueRunProgress } from '../index.ts';
import { startServer } from '../fake-service/index.ts';

const VIDEO_MODEL = 'google-veo-3-1';

// The local server decides each queued generation's fate; vary them so the output shows varied outcomes.
const server = await startServer({
  workerDelayMs: 200,
  decide: ({ model, index }) => {
    if (model !== VIDEO_MODEL) return { outcome: 'succeeded', delayMs: 200 };
    if (index === 1)
      return { outcome: 'failed', delayMs: 350, error: 'Generation failed: the safety checker rejected the frames' };
    return { outcome: 'succeeded', delayMs: index === 0 ? 500 : 800 };
  },
});
const t0 = performance.now();
const secs = () => `${((performance.now() - t0) / 1000).toFixed(1)}s`.padStart(5);

try {
  console.log(`local server: ${server.url} (stand-in for the service; API key "test-key")\n`);
  const client = new Client({ apiKey: 'test-key', baseUrl: server.url });

  // 1. A synchronous image generation.
  console.log('1. Image generation: flux-1-dev');
  const image = await client.images.generate({
    model: 'flux-1-dev',
    prompt: 'a red fox in fresh snow, golden hour',
    aspect_ratio: '16:9',
  });
  console.log(`   ${image.images.length} image from ${image.model}: ${image.images[0]!.url}\n`);

  // 2. A queued video, three generations, followed with queue.run.
  console.log(`2. Queued video: ${VIDEO_MODEL}, num_generations 3, followed with queue.run`);
  const label = new Map<string, string>();
  const onProgress = (p: QueueRunProgress): void => {
    switch (p.type) {
      case 'subscribed':
        console.log(`   ${secs()}  subscribed to /api/events`);
        break;
      case 'enqueued':
        p.generation_ids.forEach((id, i) => label.set(id, `#${i + 1}`));
        console.log(
          `   ${secs()}  enqueued ${p.generation_ids.length} generations: ${p.generation_ids.map((id) => id.slice(0, 8)).join(', ')}`,
        );
        break;
      case 'processing':
        console.log(
          `   ${secs()}  ${label.get(p.generation_id)} still processing (${(p.elapsedMs / 1000).toFixed(1)}s since enqueue)`,
        );
        break;
      case 'settled':
        console.log(
          `   ${secs()}  ${label.get(p.outcome.generation_id)} ${p.outcome.status.padEnd(9)} [${p.settled}/${p.total} done]`,
        );
        break;
      case 'stream_down':
        console.log(`   ${secs()}  event stream dropped; reconnecting`);
        break;
      case 'stream_up':
        console.log(`   ${secs()}  event stream back; reconciling pending generations`);
        break;
    }
  };
  const outcomes = await client.queue.run(
    {
      model: VIDEO_MODEL,
      prompt: 'a lighthouse in a storm, waves crashing, cinematic',
      duration: 4,
      aspect_ratio: '16:9',
      num_generations: 3,
    },
    { timeoutMs: 60_000, reconcileIntervalMs: 300, onProgress },
  );
  console.log('   outcomes:');
  for (const o of outcomes) console.log(`     ${describe(o)}`);
  console.log();

  // 3. A chat completion, streamed token by token.
  console.log('3. Streaming chat: gpt-4o-mini');
  process.stdout.write('   ');
  const stream = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Say hello to the inference SDK, one token at a time.' }],
    stream: true,
  });
  let chunks = 0;
  for await (const chunk of stream) {
    process.stdout.write(chunk.choices[0]?.delta.content ?? '');
    chunks++;
  }
  console.log(`\n   (${chunks} chunks, ended at [DONE])\n`);
  console.log(`done in ${secs().trim()}`);
} finally {
  await server.close();
}

function describe(o: QueueRunOutcome): string {
  const head = `#${o.index + 1} ${o.generation_id.slice(0, 8)}`;
  switch (o.status) {
    case 'succeeded':
      return `${head}  succeeded  ${o.media_type} ${o.url}`;
    case 'failed':
      return `${head}  failed     ${o.error}`;
    case 'cancelled':
      return `${head}  cancelled`;
    case 'lost':
      return `${head}  lost       (${o.reason}) ${o.message}`;
  }
}
