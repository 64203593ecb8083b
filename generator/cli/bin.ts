/** The generator package's bin (`oxen-inference-codegen`, bundled into `dist/cli.js`): runs `main` of `cli.ts`. */
import { main } from './index.ts';

process.exitCode = await main(process.argv.slice(2));
