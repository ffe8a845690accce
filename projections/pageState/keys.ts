// Keys of the page-state model: the core of the page document the projector evolves (settings,
// monitors), its incident and maintenance documents (one hash field each, so a batch reads and
// writes only those it touches), and the time of the page's latest event, kept apart so a batch
// of checks does not rewrite the core.
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
    updated: `${p}:updated`,
  };
};
