// The `native` webhook body of notifications.md: the message type, when it happened, the page and
// exactly the read API's object it reports.
import type { NotificationMessage } from '../message.ts';

export type NativeBody = {
  type: NotificationMessage['type'];
  timestamp: string;
  page: { slug: string; title: string; url: string };
  data: Pick<NotificationMessage, 'incident' | 'maintenance' | 'monitor'>;
};

export const renderNative = (message: NotificationMessage): NativeBody => {
  const { slug, title, url } = message.page;
  return {
    type: message.type,
    timestamp: message.timestamp,
    page: { slug, title, url },
    data: {
      ...(message.incident ? { incident: message.incident } : {}),
      ...(message.maintenance ? { maintenance: message.maintenance } : {}),
      ...(message.monitor ? { monitor: message.monitor } : {}),
    },
  };
};
