// Typed reads of the control model.
import { getString, known, mapRead, setMembers, tupleRead, zsetByScore, type Read } from '../reads.ts';
import {
  parseItemOfPage,
  parseMonitorOfPage,
  parseTick,
  type ItemOfPage,
  type MonitorOfPage,
} from '../../../projections/store/control/codec.ts';
import { partitionKeys } from '../../../projections/store/control/keys.ts';
import type { RenderSet } from '../../../projections/store/control/writes.ts';

export const checkpointRead = (tag: string): Read<string | null> => getString(partitionKeys(tag).checkpoint);

export const tickRead = (tag: string): Read<number> => mapRead(getString(partitionKeys(tag).tick), parseTick);

/** What the renderer must do: the render sets, and on a tick the pages now due. */
export type RenderQueue = Readonly<{
  dirty: string[];
  incidents: string[];
  /** Single incidents that changed (their page's lists are updated, not rewritten). */
  incidentDocs?: ItemOfPage[];
  maintenances: string[];
  /** Single maintenances that changed (their page's lists are updated, not rewritten). */
  maintenanceDocs?: ItemOfPage[];
  availability: MonitorOfPage[];
  /** Pages whose clock-dependent outputs changed by `now` (a tick only). */
  due: string[];
}>;

/** The queue that the given marks make (a batch's own, handed to the render that follows it). */
export const queueOfMarks = (marks: readonly (readonly [RenderSet, string])[]): RenderQueue => {
  const of = (wanted: RenderSet) => marks.flatMap(([set, member]) => (set === wanted ? [member] : []));
  return {
    dirty: of('dirty'),
    incidents: of('dirtyIncidents'),
    incidentDocs: of('dirtyIncidentDocs').map(parseItemOfPage),
    maintenances: of('dirtyMaintenances'),
    maintenanceDocs: of('dirtyMaintenanceDocs').map(parseItemOfPage),
    availability: of('dirtyAvailability').map(parseMonitorOfPage),
    due: [],
  };
};

export const renderQueueRead = (tag: string, options: { tick: boolean; now: number }): Read<RenderQueue> => {
  const pk = partitionKeys(tag);
  return mapRead(
    tupleRead([
      setMembers(pk.dirty),
      setMembers(pk.dirtyIncidents),
      setMembers(pk.dirtyIncidentDocs),
      setMembers(pk.dirtyMaintenances),
      setMembers(pk.dirtyMaintenanceDocs),
      setMembers(pk.dirtyAvailability),
      options.tick ? zsetByScore(pk.due, '-inf', options.now) : known<string[]>([]),
    ]),
    ([dirty, incidents, incidentDocs, maintenances, maintenanceDocs, availability, due]) => ({
      dirty,
      incidents,
      incidentDocs: incidentDocs.map(parseItemOfPage),
      maintenances,
      maintenanceDocs: maintenanceDocs.map(parseItemOfPage),
      availability: availability.map(parseMonitorOfPage),
      due,
    }),
  );
};
