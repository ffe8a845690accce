// The page script in ja: its catalogue alone is bundled.
import { ja } from '../../../../projections/locale/messages/ja.ts';
import { startPage } from '../main.ts';

startPage('ja', ja);
