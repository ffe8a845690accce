// The page script in es: its catalogue alone is bundled.
import { es } from '../../../../projections/locale/messages/es.ts';
import { startPage } from '../main.ts';

startPage('es', es);
