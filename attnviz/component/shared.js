// The router's element on a page that draws views (attnviz.ui.attention_grid.share_the_instrument): the instrument,
// with grid.css, once a page; every views element of the page (index.js) draws with it.

import { offer } from './index.js';
import { mount } from './instrument.js';

offer(mount);

export default function () {} // nothing to draw: the element brings the script and the styles
