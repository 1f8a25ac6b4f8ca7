/**
 * The learned file's reader thread (dist/learnedFileWorker.js): reads and checks one learned file
 * (learnedFile.ts readLearnedFile) off the gateway's thread and hands back what it found, then
 * ends. It holds nothing but the path and the time it is given. Examples go back in slices
 * (LEARNED_READ_SLICE each, learnedFileReader.ts), so the gateway's thread takes in a few hundred
 * at a time between its other work rather than thousands at once.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../../core/errorMessage';
import { readLearnedFile, type LearnedRead } from './learnedFile';
import { LEARNED_READ_SLICE } from './learnedFileReader';

const { file, now } = workerData as { file: string; now: number };
let read: LearnedRead;
try {
  read = readLearnedFile(file, now);
} catch (err) {
  read = { refused: `cannot read it (${errorMessage(err)})` };
}
if ('examples' in read) {
  for (let i = 0; i < read.examples.length; i += LEARNED_READ_SLICE)
    parentPort!.postMessage({ slice: read.examples.slice(i, i + LEARNED_READ_SLICE) });
  parentPort!.postMessage({ examples: [] });
} else parentPort!.postMessage(read);
