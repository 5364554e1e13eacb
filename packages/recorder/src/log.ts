/** One line of the recorder's log: JSON, with names and outcomes only, never a value. */
export type RecorderLog = (
  line: Record<string, string | number | boolean>,
) => void;

/** Writes each line as JSON on standard output, as container logs expect. */
export const stdoutLog: RecorderLog = line => {
  process.stdout.write(
    `${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`,
  );
};
