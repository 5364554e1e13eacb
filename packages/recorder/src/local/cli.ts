import { appendFileSync, readFileSync } from 'node:fs';
import { startLocalRecorder } from './localRecorder';

/**
 * `./krypton start` runs this (bundled as dist/local-recorder.cjs) beside the portal: the
 * recorder on the local control plane, registered for every managed Secret and every namespace
 * labelled for recording, until stdin closes or a signal arrives.
 * Usage: local-recorder.cjs <state.json> <recorder bundle> <deploy/recorder> <log file>
 */
async function run() {
  const [stateFile, bundle, deployDir, logFile] = process.argv.slice(2);
  if (!logFile)
    throw new Error('usage: <state.json> <bundle> <deploy dir> <log file>');
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as {
    server: string;
    caFile: string;
    dir: string;
    identities: { admin: { kubeconfig: string } };
  };
  const recorder = await startLocalRecorder(
    {
      server: state.server,
      caFile: state.caFile,
      dir: state.dir,
      adminKubeconfig: state.identities.admin.kubeconfig,
    },
    {
      bundle,
      deployDir,
      onLog: line => appendFileSync(logFile, `${JSON.stringify(line)}\n`),
    },
  );
  await recorder.register({ name: 'krypton-recorder' });
  process.stdout.write(`LOCAL_RECORDER_READY ${recorder.url}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    recorder.stop().finally(() => process.exit(0));
  };
  process.stdin.on('end', stop);
  process.stdin.resume();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

run().catch(err => {
  process.stderr.write(`local recorder: ${(err as Error).message}\n`);
  process.exit(1);
});
