// The local server of `npm run bench:follow`, in a child process so that the benchmark measures
// only the client: generations are held until the parent asks (IPC), so that both cases follow
// the same 1,000 pending generations and end at the same events.
//   { add: n }            -> { ids }: n generations of flux-1-dev enqueued for alice, held
//   { complete: ids }     -> { completed: n }: each succeeded now (its completion event sent)
import { startServer } from '../../fake-service/index.ts';

const server = await startServer({ decide: () => ({ outcome: 'hold' }), unrelatedEvents: false });
const send = (m: unknown) => process.send!(m);
process.on('message', (m: { add?: number; complete?: string[] }) => {
  if (m.add !== undefined) send({ ids: server.queue.add(m.add) });
  if (m.complete) {
    for (const id of m.complete) server.queue.complete(id, 'succeeded');
    send({ completed: m.complete.length });
  }
});
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
send({ url: server.url });
