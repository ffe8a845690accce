// The page script in fr: its catalogue alone is bundled.
import { fr } from '../../../../projections/locale/messages/fr.ts';
import { startPage } from '../main.ts';

startPage('fr', fr);
