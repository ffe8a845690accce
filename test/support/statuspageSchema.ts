// JSON Schema of Atlassian Statuspage's public API v2 documents, written from its published
// examples (summary.json of a Statuspage-hosted page's API page: page, components, incidents with
// incident_updates, scheduled_maintenances, status) and the field list of the statuspage.io client's
// result types. additionalProperties is false: the documents carry nothing Statuspage does not.
const timestamp = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
};
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const object = (properties: Record<string, object>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const page = object({
  id: { type: 'string' },
  name: { type: 'string' },
  url: { type: 'string', pattern: '^https?://' },
  time_zone: { type: 'string' },
  updated_at: timestamp,
});

const component = object({
  id: { type: 'string' },
  name: { type: 'string' },
  status: {
    enum: ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance'],
  },
  created_at: timestamp,
  updated_at: timestamp,
  position: nullable({ type: 'integer' }),
  description: nullable({ type: 'string' }),
  showcase: { type: 'boolean' },
  start_date: nullable({ type: 'string' }),
  group_id: nullable({ type: 'string' }),
  page_id: { type: 'string' },
  group: { type: 'boolean' },
  only_show_if_degraded: { type: 'boolean' },
});

const updateStatuses = [
  'investigating',
  'identified',
  'monitoring',
  'resolved',
  'postmortem',
  'scheduled',
  'in_progress',
  'verifying',
  'completed',
];

const incidentUpdate = object({
  id: { type: 'string' },
  status: { enum: updateStatuses },
  body: { type: 'string' },
  incident_id: { type: 'string' },
  created_at: timestamp,
  updated_at: timestamp,
  display_at: timestamp,
  affected_components: nullable({ type: 'array' }),
  deliver_notifications: { type: 'boolean' },
  custom_tweet: nullable({ type: 'string' }),
  tweet_id: nullable({ type: 'string' }),
});

const incidentFields = {
  id: { type: 'string' },
  name: { type: 'string' },
  status: { enum: ['investigating', 'identified', 'monitoring', 'resolved', 'postmortem'] },
  created_at: timestamp,
  updated_at: timestamp,
  monitoring_at: nullable(timestamp),
  resolved_at: nullable(timestamp),
  impact: { enum: ['none', 'minor', 'major', 'critical'] },
  shortlink: { type: 'string', pattern: '^https?://' },
  started_at: timestamp,
  page_id: { type: 'string' },
  incident_updates: { type: 'array', items: incidentUpdate, minItems: 1 },
  components: { type: 'array', items: component },
};

const incident = object(incidentFields);
const maintenance = object({
  ...incidentFields,
  status: { enum: ['scheduled', 'in_progress', 'verifying', 'completed'] },
  impact: { enum: ['none', 'minor', 'major', 'critical', 'maintenance'] },
  scheduled_for: timestamp,
  scheduled_until: timestamp,
});

const status = object({
  indicator: { enum: ['none', 'minor', 'major', 'critical', 'maintenance'] },
  description: { type: 'string' },
});

const list = (items: object) => ({ type: 'array', items });

export const statuspageSchemas = {
  summary: object({
    page,
    components: list(component),
    incidents: list(incident),
    scheduled_maintenances: list(maintenance),
    status,
  }),
  status: object({ page, status }),
  components: object({ page, components: list(component) }),
  incidents: object({ page, incidents: { ...list(incident), maxItems: 50 } }),
  'incidents/unresolved': object({ page, incidents: list(incident) }),
  'scheduled-maintenances': object({ page, scheduled_maintenances: { ...list(maintenance), maxItems: 50 } }),
  'scheduled-maintenances/upcoming': object({ page, scheduled_maintenances: list(maintenance) }),
  'scheduled-maintenances/active': object({ page, scheduled_maintenances: list(maintenance) }),
} as const;
