// Caddy with the shipped Caddyfile in front of the service (plain HTTP for the service's own address).
import { startCaddy } from '../support/caddy.ts';
import { edgeSuite } from '../support/edgeSuite.ts';

edgeSuite('Caddy', startCaddy);
