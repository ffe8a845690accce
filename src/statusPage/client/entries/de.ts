// The page script in de: its catalogue alone is bundled.
import { de } from '../../../../projections/locale/messages/de.ts';
import { startPage } from '../main.ts';

startPage('de', de);
