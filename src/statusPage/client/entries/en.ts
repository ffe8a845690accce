// The page script in en: its catalogue alone is bundled.
import { en } from '../../../../projections/locale/messages/en.ts';
import { startPage } from '../main.ts';

startPage('en', en);
