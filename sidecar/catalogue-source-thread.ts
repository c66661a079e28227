/**
 * The thread of loadCatalogueInTurns (catalogue-in-turns.ts): reads and validates a data folder
 * and posts the validated source as JSON, or the loader's message when the data is invalid.
 */
import { parentPort, workerData } from "node:worker_threads";
import { readCatalogueSource } from "../catalogue/load/load.ts";

const { dataDir } = workerData as { dataDir: string };
try {
  parentPort!.postMessage({ source: JSON.stringify(readCatalogueSource(dataDir)) });
} catch (error) {
  parentPort!.postMessage({ error: (error as Error).message });
}
