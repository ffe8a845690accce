// Which process holds the server side of a TCP connection (Linux /proc): the connection's inode
// from /proc/net/tcp{,6}, then the process among `pids` with a file descriptor on that socket.
// Lets a test see which of a server's processes answered, without the server saying so.
import { readdir, readFile, readlink } from 'node:fs/promises';

const hexPort = (port: number): string => port.toString(16).toUpperCase().padStart(4, '0');

const socketInode = async (serverPort: number, clientPort: number): Promise<string | null> => {
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = (await readFile(table, 'utf8')).split('\n').slice(1);
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      const [local, remote, inode] = [fields[1], fields[2], fields[9]];
      if (local?.endsWith(`:${hexPort(serverPort)}`) && remote?.endsWith(`:${hexPort(clientPort)}`))
        return inode ?? null;
    }
  }
  return null;
};

const holds = async (pid: number, socket: string): Promise<boolean> => {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
  for (const fd of fds) if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) === socket) return true;
  return false;
};

/** The pid among `pids` that holds the server end of 127.0.0.1:clientPort → serverPort, or null. */
export const socketOwner = async (
  serverPort: number,
  clientPort: number,
  pids: readonly number[],
): Promise<number | null> => {
  const inode = await socketInode(serverPort, clientPort);
  if (inode === null) return null;
  for (const pid of pids) if (await holds(pid, `socket:[${inode}]`)) return pid;
  return null;
};
