// Keys of the page-state model: the page core, its incident and maintenance hashes and its latest
// event time, apart so a batch touches only what it needs.
import { pagePrefix, type PageRef } from '../store/page.ts';

export const pageStateKeys = (page: PageRef) => {
  const p = pagePrefix(page);
  return {
    state: `${p}:state`,
    stateIncidents: `${p}:state:inc`,
    stateMaintenances: `${p}:state:mnt`,
    /** Indexes of the incidents (a render reads only those it shows): the unresolved ids, and ids by start and by latest update. */
    incidentsOpen: `${p}:state:inc:open`,
    incidentsByStart: `${p}:state:inc:start`,
    incidentsByUpdate: `${p}:state:inc:upd`,
    /**
     * Indexes of the maintenances (a render reads only those it shows, a month is counted without
     * its documents): ids by scheduled start and by when they settle (maintenanceSettledAt); the
     * windows that are not empty, by start and by end, and the cancelled ones among them.
     */
    maintenancesByStart: `${p}:state:mnt:start`,
    maintenancesBySettled: `${p}:state:mnt:upd`,
    windowsByStart: `${p}:state:mnt:ws`,
    windowsByEnd: `${p}:state:mnt:we`,
    cancelledByStart: `${p}:state:mnt:cs`,
    cancelledByEnd: `${p}:state:mnt:ce`,
    updated: `${p}:updated`,
  };
};
