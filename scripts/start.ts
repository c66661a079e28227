/**
 * `npm start`: runs the server (./start-server.ts: builds dist/ when it is missing or stale, then
 * serves the API on PORT and the text host on TEXT_PORT) under a supervisor (./supervisor.ts) that
 * starts it again, on the same ports, when it dies. Exits with the server's code when it stops on
 * purpose, or when its first start fails (a port or DATA_DIR in use: the server says which).
 */
import { fileURLToPath } from "node:url";
import { supervise } from "./supervisor.ts";

const SERVER = fileURLToPath(new URL("./start-server.ts", import.meta.url));

process.exitCode = await supervise({ script: SERVER });
