// The webhook contact point's payload as Grafana's documentation gives it (version "1").
const alert = (zone: string, name: string, startsAt: string, fingerprint: string, rule: string) => ({
  status: 'firing',
  labels: { alertname: name, team: 'blue', zone },
  annotations: {
    description: `The system has ${name.toLowerCase()}`,
    runbook_url: 'https://myrunbook.com/runbook/1234',
    summary: `This alert was triggered for zone ${zone}`,
  },
  startsAt,
  endsAt: '0001-01-01T00:00:00Z',
  generatorURL: `https://play.grafana.org/alerting/${rule}/edit`,
  fingerprint,
  silenceURL: `https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT2%2Cteam%3Dblue%2Czone%3D${zone}`,
  dashboardURL: '',
  panelURL: '',
  values: { B: 44.23943737541908, C: 1 },
});

/** The example of Grafana's webhook notifier documentation. */
export const grafanaDocumented = {
  receiver: 'My Super Webhook',
  status: 'firing',
  orgId: 1,
  alerts: [
    alert('us-1', 'High memory usage', '2021-10-12T09:51:03.157076+02:00', 'c6eadffa33fcdf37', '1afz29v7z'),
    alert('eu-1', 'High CPU usage', '2021-10-12T09:56:03.157076+02:00', 'bc97ff14869b13e3', 'd1rdpdv7k'),
  ],
  groupLabels: {},
  commonLabels: { team: 'blue' },
  commonAnnotations: {},
  externalURL: 'https://play.grafana.org/',
  version: '1',
  groupKey: '{}:{}',
  truncatedAlerts: 0,
  title: '[FIRING:2] (blue)',
  state: 'alerting',
  message: '**Firing**\n\nLabels:\n - alertname = T2\n - team = blue\n - zone = us-1\n',
};
