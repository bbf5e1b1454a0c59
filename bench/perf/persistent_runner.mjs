// The Node.js half of persistent_runner.h: a long-lived runner reads one JSON request per line on
// stdin, {id, source, input, memoryBytes, cpuMillis}, runs it with `run(request)` and writes one
// JSON answer per line on stdout, {id, status: "succeeded", output, callSpanMicros} or
// {id, status: "failed", error}. Requests are not awaited one by one: two that arrive together
// run at the same time, as far as the engine behind `run` allows. The line {id: 0, status:
// "ready"} says the runner has loaded its engine; EOF on stdin ends it once the answers are out.
import { createInterface } from 'node:readline';

function write(answer) {
  process.stdout.write(JSON.stringify(answer) + '\n');
}

function message(error) {
  return String(error && error.message ? error.message : error);
}

export function serve(run) {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    let request;
    try {
      request = JSON.parse(line);
    } catch (error) {
      write({ id: null, status: 'failed', error: 'bad request: ' + message(error) });
      return;
    }
    Promise.resolve()
      .then(() => run(request))
      .then(
        (answer) => write({ id: request.id, ...answer }),
        (error) => write({ id: request.id, status: 'failed', error: message(error) }),
      );
  });
  write({ id: 0, status: 'ready' });
}
