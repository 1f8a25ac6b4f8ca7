/**
 * The learned file's reader thread (dist/learnedFileWorker.js): reads and checks one learned file
 * (learnedFile.ts readLearnedFile) off the gateway's thread and hands back what it found, then
 * ends. It holds nothing but the path and the time it is given.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../../core/errorMessage';
import { readLearnedFile, type LearnedRead } from './learnedFile';

const { file, now } = workerData as { file: string; now: number };
let read: LearnedRead;
try {
  read = readLearnedFile(file, now);
} catch (err) {
  read = { refused: `cannot read it (${errorMessage(err)})` };
}
parentPort!.postMessage(read);
